// Writing a generated corpus (voxrig/testing/gen.h cases) in the golden layout, shared by `voxrig
// gen` and `voxrig conform --generated`.
#include "gen_corpus.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "voxrig/any_format.h"
#include "voxrig/sha256.h"

namespace voxrig::cli {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

std::string ext_of(gen::GenFormat f) { return std::string(gen::to_string(f)); }

struct Writer {
  std::string dir;
  bool ok = true;
  void put(const std::string& rel, const std::vector<uint8_t>& bytes) {
    if (!ok) return;  // after the first failure (printed by write_file): one line, not one per case
    std::error_code ec;
    const fs::path p = fs::path(dir) / rel;
    fs::create_directories(p.parent_path(), ec);
    ok = write_file(p.string(), bytes) && ok;
  }
};

ordered_json mutation_json(const gen::GenMutation& m) {
  ordered_json j;
  j["op"] = m.op;
  j["offset"] = m.offset;
  j["field"] = m.field;
  if (m.op == "truncate")
    j["length"] = m.value;
  else if (m.op == "set_bytes" || m.op == "append") {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string h;
    for (uint8_t b : m.bytes) {
      h += kHex[b >> 4];
      h += kHex[b & 15];
    }
    j["bytes"] = h;
  } else {
    j["value"] = m.value;
  }
  return j;
}

}  // namespace

bool parse_gen_number(const std::string& s, uint64_t& out) {
  if (s.empty() || s[0] == '-') return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoull(s.c_str(), &end, 0);
  return *end == 0 && errno == 0;
}

std::string gen_case_id(const gen::GenCase& c, uint64_t index) {
  char num[32];
  std::snprintf(num, sizeof num, "%06llu", static_cast<unsigned long long>(index));
  return "gen/" + std::string(gen::to_string(c.format)) + "/" + num + "-" + c.kind;
}

std::string gen_regen_command(const GenCorpusOptions& o, uint64_t index,
                              const std::string& out_dir) {
  std::string cmd = "voxrig gen --format ";
  if (o.all_formats) {
    cmd += "all";
  } else {
    for (size_t i = 0; i < o.formats.size(); ++i)
      cmd += (i ? "," : "") + std::string(gen::to_string(o.formats[i]));
  }
  cmd += " --seed " + std::to_string(o.seed) + " --index " + std::to_string(index);
  if (o.size == gen::GenSize::Medium) cmd += " --size medium";
  if (o.all_negative)
    cmd += " --negative";
  else if (o.negative_every)
    cmd += " --mix-negative " + std::to_string(o.negative_every);
  return cmd + " --out " + out_dir;
}

int write_generated_corpus(const std::string& dir, const GenCorpusOptions& o,
                           std::vector<std::string>& ids) {
  Writer w{dir};
  ordered_json cases = ordered_json::array();
  size_t mismatches = 0;
  const uint64_t first = o.index.value_or(0), end = o.index ? *o.index + 1 : o.count;
  ids.assign(end, "");
  const bool tty = ::isatty(2) == 1;
  uint64_t last_decile = 0;
  for (uint64_t i = first; i < end; ++i) {
    const gen::GenFormat f = o.formats[i % o.formats.size()];
    const bool negative =
        o.all_negative || (o.negative_every && i % o.negative_every == o.negative_every - 1);
    const uint64_t cseed = gen::case_seed(o.seed, i);
    const gen::GenCase c = gen::generate_case(f, cseed, o.size, negative);
    const std::string id = gen_case_id(c, i);
    ids[i] = id;
    const std::string file = "files/" + id + "." + ext_of(f);
    w.put(file, c.bytes);

    ordered_json expect = ordered_json::object();
    for (const gen::GenExpect& e : c.expect) {
      const std::string profile(to_string(e.profile));
      ordered_json x;
      if (!e.accept) {
        x["verdict"] = "reject";
        x["error"] = std::string(to_string(e.error));
        expect[profile] = x;
        continue;
      }
      x["verdict"] = "accept";
      const auto dump = dump_any(c.bytes, e.profile, Limits{});
      const std::string dump_path = "dumps/" + id + "." + profile + ".json";
      if (!dump.ok()) {
        ++mismatches;
        std::cerr << "gen: MISMATCH " << id << " [" << profile
                  << "]: declared accept, the reference rejects: " << dump.error().to_text()
                  << "\n";
        const std::string note = "{\"note\": \"the reference rejected this generated file\"}\n";
        w.put(dump_path, {note.begin(), note.end()});
      } else {
        w.put(dump_path, {dump->begin(), dump->end()});
      }
      x["dump"] = dump_path;
      auto writer = [&](const char* op, const Result<std::vector<uint8_t>>& out) -> ordered_json {
        if (!out.ok()) return ordered_json{{"error", std::string(to_string(out.error().code))}};
        if (*out == c.bytes) return "same";
        // D1: every generated valid file is in the writer's form (VFP canonicalize may reorder).
        if (!c.negative && (std::string_view(op) == "roundtrip" || f != gen::GenFormat::Vfp)) {
          ++mismatches;
          std::cerr << "gen: MISMATCH " << id << " [" << profile << "] " << op
                    << ": the writer changed a generated valid file\n";
        }
        const std::string rel = "expected/" + id + "." + profile + "." + op + "." + ext_of(f);
        w.put(rel, *out);
        return rel;
      };
      if (dump.ok()) {
        x["roundtrip"] = writer("roundtrip", roundtrip_any(c.bytes, e.profile, Limits{}));
        x["canonicalize"] = writer("canonicalize", canonicalize_any(c.bytes, e.profile, Limits{}));
      }
      expect[profile] = x;
    }
    ordered_json m;
    m["id"] = id;
    m["path"] = file;
    m["sha256"] = to_hex(sha256(c.bytes));
    m["format"] = std::string(gen::to_string(f));
    m["tags"] = {"generated", c.negative ? "negative" : "positive"};
    m["rule"] = c.rule;
    m["level"] = "required";
    m["source"] = "generated";
    if (c.negative) {
      ordered_json muts = ordered_json::array();
      for (const auto& mu : c.mutations) muts.push_back(mutation_json(mu));
      m["mutations"] = muts;
    }
    m["note"] = (c.negative ? "mutation " + c.kind + " of a valid file: " : "valid file: ") +
                c.description + "; regenerate: " + gen_regen_command(o, i, "DIR");
    m["generator"] = {{"seed", std::to_string(o.seed)},
                      {"index", i},
                      {"case_seed", std::to_string(cseed)},
                      {"kind", c.kind},
                      {"size", o.size == gen::GenSize::Small ? "small" : "medium"}};
    m["expect"] = expect;
    cases.push_back(std::move(m));
    if (o.progress && end - first >= 200) {
      const uint64_t done = i - first + 1, decile = done * 10 / (end - first);
      if (tty) {
        std::cerr << "\r\x1b[Kgen: [" << done << "/" << end - first << "] " << id << std::flush;
      } else if (decile != last_decile) {
        last_decile = decile;
        std::cerr << "gen: [" << done << "/" << end - first << "] " << id << "\n";
      }
    }
  }
  if (o.progress && tty && end - first >= 200) std::cerr << "\r\x1b[K" << std::flush;
  ordered_json manifest;
  manifest["schema"] = "voxrig-manifest/1";
  manifest["suite"] = "voxrig";
  manifest["suite_version"] = VOXRIG_VERSION;
  manifest["cases"] = std::move(cases);
  manifest["compile_cases"] = ordered_json::array();
  const std::string text = manifest.dump(1) + "\n";
  w.put("manifest.json", {text.begin(), text.end()});
  if (!w.ok) return kExitIo;
  if (mismatches) {
    std::cerr << "gen: " << mismatches
              << " disagreement(s) between generated files and the reference\n";
    return kExitFailed;
  }
  return kExitOk;
}

int parse_generated_options(const Args& args, GenCorpusOptions& o, std::string_view who) {
  const std::string format = args.get("--format").value_or("all");
  if (format == "all") {
    o.all_formats = true;
    o.formats = {gen::GenFormat::Vfp, gen::GenFormat::Rkc, gen::GenFormat::Kv6, gen::GenFormat::Rvc,
                 gen::GenFormat::Kfa};
  } else {
    std::string_view rest = format;
    while (true) {
      const size_t comma = rest.find(',');
      const auto f = gen::gen_format_from_string(rest.substr(0, comma));
      if (!f) {
        std::cerr << "voxrig " << who << ": --format takes vfp, rkc, kv6, rvc, kfa or all\n";
        return kExitUsage;
      }
      o.formats.push_back(*f);
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  if (auto s = args.get("--seed"); s && !parse_gen_number(*s, o.seed)) {
    std::cerr << "voxrig " << who << ": --seed takes an unsigned 64-bit integer\n";
    return kExitUsage;
  }
  if (auto s = args.get("--size")) {
    if (*s == "medium")
      o.size = gen::GenSize::Medium;
    else if (*s != "small") {
      std::cerr << "voxrig " << who << ": --size takes small or medium\n";
      return kExitUsage;
    }
  }
  return kExitOk;
}

}  // namespace voxrig::cli
