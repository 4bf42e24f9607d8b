// Option values several commands share (option_values.h).
#include "option_values.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <iostream>

namespace voxrig::cli {

bool number_option(const Args& args, std::string_view who, std::string_view name, uint64_t lo,
                   uint64_t hi, uint64_t& out) {
  const auto v = args.last(name);
  if (!v) return true;
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(v->c_str(), &end, 0);
  if (!v->empty() && !*end && errno == 0 && (*v)[0] != '-' && n >= lo && n <= hi) {
    out = n;
    return true;
  }
  std::cerr << "voxrig " << who << ": " << name << " takes a number from " << lo << " to " << hi
            << ", got '" << *v << "'\n";
  return false;
}

bool seconds_option(const Args& args, std::string_view who, std::string_view name, double lo,
                    double hi, double& out) {
  const auto v = args.last(name);
  if (!v) return true;
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  if (!v->empty() && !*end && d >= lo && d <= hi) {
    out = d;
    return true;
  }
  std::cerr << "voxrig " << who << ": " << name << " takes seconds from " << lo << " to " << hi
            << ", got '" << *v << "'\n";
  return false;
}

int parse_generated_options(const Args& args, gen::GenCorpusOptions& o, std::string_view who) {
  // parse_args has checked --format and --size against their choices.
  const std::string format = args.last("--format").value_or("all");
  if (format == "all") {
    o.all_formats = true;
    o.formats = {gen::GenFormat::Vfp, gen::GenFormat::Rkc, gen::GenFormat::Kv6, gen::GenFormat::Rvc,
                 gen::GenFormat::Kfa};
  } else {
    for (std::string_view rest = format;;) {
      const size_t comma = rest.find(',');
      if (const auto f = gen::gen_format_from_string(rest.substr(0, comma)))
        o.formats.push_back(*f);
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  if (!number_option(args, who, "--seed", 0, UINT64_MAX, o.seed)) return kExitUsage;
  if (args.last("--size") == "medium") o.size = gen::GenSize::Medium;
  return kExitOk;
}

int write_generated(const std::string& dir, const gen::GenCorpusOptions& o, bool progress,
                    std::vector<std::string>& ids) {
  const bool tty = ::isatty(2) == 1;
  uint64_t last_decile = 0;
  auto show = [&](uint64_t done, uint64_t total, const std::string& id) {
    if (!progress || total < 200) return;
    if (tty) {
      std::cerr << "\r\x1b[Kgen: [" << done << "/" << total << "] " << id << std::flush;
    } else if (const uint64_t decile = done * 10 / total; decile != last_decile) {
      last_decile = decile;
      std::cerr << "gen: [" << done << "/" << total << "] " << id << "\n";
    }
  };
  gen::GenCorpusResult r = gen::write_generated_corpus(dir, o, show);
  if (progress && tty && r.ids.size() - o.index.value_or(0) >= 200) std::cerr << "\r\x1b[K";
  ids = std::move(r.ids);
  for (const auto& m : r.mismatches) std::cerr << "gen: MISMATCH " << m << "\n";
  if (!r.write_error.empty()) {
    std::cerr << "voxrig: " << r.write_error << "\n";
    return kExitIo;
  }
  if (r.mismatches.empty()) return kExitOk;
  std::cerr << "gen: " << r.mismatches.size()
            << " disagreement(s) between generated files and the reference\n";
  return kExitFailed;
}

conform::ReaderProtocol protocol_option(const Args& args) {
  // parse_args has checked the value against kProtocolChoices.
  return conform::reader_protocol_from_string(args.last("--protocol").value_or("auto"))
      .value_or(conform::ReaderProtocol::Auto);
}

}  // namespace voxrig::cli
