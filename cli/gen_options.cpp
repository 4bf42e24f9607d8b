// Generator options and writing a generated corpus for gen and conform --generated
// (gen_options.h).
#include "gen_options.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <iostream>

namespace voxrig::cli {

bool parse_gen_number(const std::string& s, uint64_t& out) {
  if (s.empty() || s[0] == '-') return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoull(s.c_str(), &end, 0);
  return *end == 0 && errno == 0;
}

int parse_generated_options(const Args& args, gen::GenCorpusOptions& o, std::string_view who) {
  // parse_args has checked --format and --size against their choices.
  const std::string format = args.get("--format").value_or("all");
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
  if (auto s = args.get("--seed"); s && !parse_gen_number(*s, o.seed)) {
    std::cerr << "voxrig " << who << ": --seed takes an unsigned 64-bit integer\n";
    return kExitUsage;
  }
  if (args.get("--size") == "medium") o.size = gen::GenSize::Medium;
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

}  // namespace voxrig::cli
