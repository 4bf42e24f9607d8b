// Writing a generated corpus in the golden layout (voxrig/testing/gen_corpus.h).
#include "voxrig/testing/gen_corpus.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "voxrig/any_format.h"
#include "voxrig/sha256.h"
#include "voxrig/version.h"

namespace voxrig::gen {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

std::string ext_of(GenFormat f) { return std::string(to_string(f)); }

// Writes files under one directory, stopping at the first failure (one message, not one per
// case).
struct Writer {
  std::string dir;
  std::string error;
  void put(const std::string& rel, const std::vector<uint8_t>& bytes) {
    if (!error.empty()) return;
    std::error_code ec;
    const fs::path p = fs::path(dir) / rel;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out.close();
    if (!out) error = "cannot write " + p.string() + ": " + std::strerror(errno ? errno : EIO);
  }
};

ordered_json mutation_json(const GenMutation& m) {
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

// One case being written: its id, file and where its outputs and disagreements go.
struct CaseOut {
  const GenCase& c;
  const std::string& id;
  Writer& w;
  std::vector<std::string>& mismatches;
};

// The manifest value of one writer operation, its output written when it differs from the file.
ordered_json writer_expect(const CaseOut& k, const std::string& profile, const char* op,
                           const Result<std::vector<uint8_t>>& out) {
  if (!out.ok()) return ordered_json{{"error", std::string(to_string(out.error().code))}};
  if (*out == k.c.bytes) return "same";
  // D1: every generated valid file is in the writer's form (VFP canonicalize may reorder).
  if (!k.c.negative && (std::string_view(op) == "roundtrip" || k.c.format != GenFormat::Vfp))
    k.mismatches.push_back(k.id + " [" + profile + "] " + op +
                           ": the writer changed a generated valid file");
  const std::string rel = "expected/" + k.id + "." + profile + "." + op + "." + ext_of(k.c.format);
  k.w.put(rel, *out);
  return rel;
}

// The manifest "expect" of a case: per profile the declared verdict and, for accepts, the
// reference's dump and writer outputs.
ordered_json expect_json(const CaseOut& k) {
  ordered_json expect = ordered_json::object();
  for (const GenExpect& e : k.c.expect) {
    const std::string profile(to_string(e.profile));
    ordered_json x;
    if (!e.accept) {
      x["verdict"] = "reject";
      x["error"] = std::string(to_string(e.error));
      expect[profile] = x;
      continue;
    }
    x["verdict"] = "accept";
    const auto dump = dump_any(k.c.bytes, e.profile, Limits{});
    const std::string dump_path = "dumps/" + k.id + "." + profile + ".json";
    if (!dump.ok()) {
      k.mismatches.push_back(k.id + " [" + profile + "]: declared accept, the reference rejects: " +
                             dump.error().to_text());
      const std::string note = "{\"note\": \"the reference rejected this generated file\"}\n";
      k.w.put(dump_path, {note.begin(), note.end()});
    } else {
      k.w.put(dump_path, {dump->begin(), dump->end()});
    }
    x["dump"] = dump_path;
    if (dump.ok()) {
      x["roundtrip"] =
          writer_expect(k, profile, "roundtrip", roundtrip_any(k.c.bytes, e.profile, Limits{}));
      x["canonicalize"] = writer_expect(k, profile, "canonicalize",
                                        canonicalize_any(k.c.bytes, e.profile, Limits{}));
    }
    expect[profile] = x;
  }
  return expect;
}

ordered_json case_json(const GenCorpusOptions& o, const CaseOut& k, uint64_t i, uint64_t cseed,
                       const std::string& file) {
  const GenCase& c = k.c;
  ordered_json m;
  m["id"] = k.id;
  m["path"] = file;
  m["sha256"] = to_hex(sha256(c.bytes));
  m["format"] = std::string(to_string(c.format));
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
                    {"size", o.size == GenSize::Small ? "small" : "medium"}};
  m["expect"] = expect_json(k);
  return m;
}

}  // namespace

std::string gen_case_id(const GenCase& c, uint64_t index) {
  char num[32];
  std::snprintf(num, sizeof num, "%06llu", static_cast<unsigned long long>(index));
  return "gen/" + std::string(to_string(c.format)) + "/" + num + "-" + c.kind;
}

std::string gen_regen_command(const GenCorpusOptions& o, uint64_t index,
                              const std::string& out_dir) {
  std::string cmd = "voxrig gen --format ";
  if (o.all_formats) {
    cmd += "all";
  } else {
    for (size_t i = 0; i < o.formats.size(); ++i)
      cmd += (i ? "," : "") + std::string(to_string(o.formats[i]));
  }
  cmd += " --seed " + std::to_string(o.seed) + " --index " + std::to_string(index);
  if (o.size == GenSize::Medium) cmd += " --size medium";
  if (o.all_negative)
    cmd += " --negative";
  else if (o.negative_every)
    cmd += " --mix-negative " + std::to_string(o.negative_every);
  return cmd + " --out " + out_dir;
}

GenCorpusResult write_generated_corpus(const std::string& dir, const GenCorpusOptions& o,
                                       const GenProgress& progress) {
  GenCorpusResult r;
  Writer w{dir, ""};
  ordered_json cases = ordered_json::array();
  const uint64_t first = o.index.value_or(0), end = o.index ? *o.index + 1 : o.count;
  r.ids.assign(end, "");
  for (uint64_t i = first; i < end; ++i) {
    const GenFormat f = o.formats[i % o.formats.size()];
    const bool negative =
        o.all_negative || (o.negative_every && i % o.negative_every == o.negative_every - 1);
    const uint64_t cseed = case_seed(o.seed, i);
    const GenCase c = generate_case(f, cseed, o.size, negative);
    r.ids[i] = gen_case_id(c, i);
    const std::string file = "files/" + r.ids[i] + "." + ext_of(f);
    w.put(file, c.bytes);
    cases.push_back(case_json(o, CaseOut{c, r.ids[i], w, r.mismatches}, i, cseed, file));
    if (progress) progress(i - first + 1, end - first, r.ids[i]);
  }
  ordered_json manifest;
  manifest["schema"] = "voxrig-manifest/1";
  manifest["suite"] = "voxrig";
  manifest["suite_version"] = suite_version();
  // The spec its verdicts follow; no corpus_version: that names the golden corpus only.
  manifest["spec_version"] = spec_version();
  manifest["cases"] = std::move(cases);
  manifest["compile_cases"] = ordered_json::array();
  const std::string text = manifest.dump(1) + "\n";
  w.put("manifest.json", {text.begin(), text.end()});
  r.write_error = w.error;
  return r;
}

}  // namespace voxrig::gen
