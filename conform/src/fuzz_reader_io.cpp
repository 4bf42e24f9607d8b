// fuzz-reader's two runners (a process per input, or an in-process testee) and what it writes
// (voxrig/conform/fuzz_reader.h): the report, the ready-to-add cases and a golden directory of
// them.
#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "voxrig/any_format.h"
#include "voxrig/conform/fuzz_reader.h"
#include "voxrig/version.h"
#include "voxrig/json_out.h"
#include "voxrig/sha256.h"

namespace voxrig::conform {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string extension(std::span<const uint8_t> bytes) {
  const Format f = detect_format(bytes);
  return f == Format::Unknown ? "bin" : std::string(to_string(f));
}

std::string hex(std::span<const uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) {
    s += d[x >> 4];
    s += d[x & 15];
  }
  return s;
}

/// Bytes as the case sources' "hex" lines: 32 bytes a line, bytes separated by spaces.
Json hex_lines(std::span<const uint8_t> b) {
  Json lines = Json::array();
  for (size_t at = 0; at < b.size(); at += 32) {
    std::string line;
    for (size_t i = at; i < std::min(b.size(), at + 32); ++i) {
      if (i != at) line += ' ';
      line += hex(b.subspan(i, 1));
    }
    lines.push_back(line);
  }
  return lines;
}

std::string text(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace); }

FuzzBytes bytes_of(std::string_view s) { return FuzzBytes(s.begin(), s.end()); }

/// The profiles a file of this format is judged under (manifest order).
std::vector<Profile> profiles_of(std::span<const uint8_t> bytes) {
  switch (detect_format(bytes)) {
    case Format::Vfp:
      return {Profile::VfpStatic, Profile::VfpRig};
    case Format::Unknown:
      return {Profile::VfpStatic, Profile::VfpRig, Profile::RkcStrict, Profile::RkcCompat};
    default:
      return {Profile::RkcStrict, Profile::RkcCompat};
  }
}

Json chain_json(const std::vector<FuzzStep>& chain, const std::vector<FuzzMutator>& mutators) {
  Json a = Json::array();
  char seed[24];
  for (const FuzzStep& s : chain) {
    std::snprintf(seed, sizeof seed, "0x%016llx", static_cast<unsigned long long>(s.seed));
    a.push_back({{"mutator", mutators[s.mutator].name}, {"seed", seed}});
  }
  return a;
}

std::string seed_text(uint64_t s) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(s));
  return b;
}

std::string stem(const std::string& id) {
  std::string s = id;
  for (char& c : s)
    if (c == '/') c = '_';
  return s;
}

Json finding_json(const FuzzRunInfo& info, const FuzzFinding& f,
                  const std::vector<FuzzMutator>& mutators) {
  return Json{
      {"id", f.id},
      {"profile", std::string(to_string(info.profile))},
      {"class",
       {{"kind", f.cls.kind},
        {"expected", f.cls.expected},
        {"got", f.cls.got},
        {"path", f.cls.path}}},
      {"reason", f.reason},
      {"hits", f.hits},
      {"seed", seed_text(info.seed)},
      {"execution", f.exec},
      {"reproduce", "--seed " + seed_text(info.seed) + " --runs " + std::to_string(f.exec + 1)},
      {"seed_file", f.seed_origin},
      {"chain", chain_json(f.chain, mutators)},
      {"chained_size", f.chained.size()},
      {"size", f.input.size()},
      {"reader_stdout", f.reader_out}};
}

std::string expected_failure_line(const FuzzRunInfo& info, const FuzzFinding& f) {
  std::string reason = f.reason;
  for (char& c : reason)
    if (c == '\n' || c == '\r' || c == '#') c = ' ';
  return f.id + " " + std::string(to_string(info.profile)) + "  # fuzz-reader: " + reason;
}

}  // namespace

// ---- runners ----------------------------------------------------------------------------------

FuzzRunner process_runner(std::shared_ptr<ReaderTransport> transport, Profile profile,
                          std::string work_dir) {
  return [transport = std::move(transport), profile,
          work_dir = std::move(work_dir)](const std::vector<FuzzBytes>& inputs) {
    std::vector<ReaderRequest> requests;
    std::vector<std::string> files;
    for (size_t i = 0; i < inputs.size(); ++i) {
      // The extension follows the magic, as golden files are named (a reader may look at it).
      files.push_back(
          (fs::path(work_dir) / ("input-" + std::to_string(i) + "." + extension(inputs[i])))
              .string());
      std::ofstream(files.back(), std::ios::binary | std::ios::trunc)
          .write(reinterpret_cast<const char*>(inputs[i].data()),
                 std::streamsize(inputs[i].size()));
      requests.push_back(
          {Check::Dump, {"dump", "--profile", std::string(to_string(profile)), files.back()}});
    }
    std::vector<RunOutcome> out(inputs.size());
    for (RunOutcome& o : out) {  // what a job the pool never started (SIGINT) reports
      o.started = false;
      o.spawn_error = "interrupted";
    }
    // The pool catches SIGINT/SIGTERM while it runs; pass an interrupt on to the caller's
    // handler (fuzz-reader's stop flag) once the pool has restored it.
    if (!transport->run(requests, [&](size_t i, RunOutcome&& r) { out[i] = std::move(r); }))
      std::raise(SIGINT);
    std::error_code ec;
    for (const std::string& f : files) fs::remove(f, ec);
    return out;
  };
}

FuzzRunner testee_runner(const Testee& testee, Profile profile) {
  return [&testee, profile](const std::vector<FuzzBytes>& inputs) {
    std::vector<RunOutcome> out(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      TesteeOutcome t = testee.dump(inputs[i], to_string(profile));
      RunOutcome& r = out[i];
      switch (t.status) {
        case TesteeStatus::Accept:
          r.exit_code = 0;
          r.out = std::move(t.text);
          break;
        case TesteeStatus::Reject:
          r.exit_code = 1;
          r.out = "{\"error\": " + json_quote(t.text) + "}";
          break;
        case TesteeStatus::Failure:
          r.exit_code = 70;  // judged as a crash, with the failure as its stderr
          r.err = std::move(t.text);
          break;
      }
    }
    return out;
  };
}

// ---- results ----------------------------------------------------------------------------------

std::vector<std::string> never_reached(const FuzzRunInfo& info, const FuzzResult& result) {
  std::vector<std::string> out;
  for (const std::string& r : info.breakable)
    if (result.rules_broken.count(r) == 0) out.push_back(r);
  return out;
}

// report.json's "rules": what the run broke, judged by the reference's error codes.
Json rules_json(const FuzzRunInfo& info, const FuzzResult& result) {
  Json broken = Json::object(), left_out = Json::array();
  for (const auto& [rule, n] : result.rules_broken) broken[rule] = n;
  for (const auto& [rule, why] : info.unbreakable)
    left_out.push_back({{"rule", rule}, {"reason", why}});
  return {{"breakable", info.breakable},
          {"broken", broken},
          {"never_reached", never_reached(info, result)},
          {"not_breakable", left_out}};
}

std::string fuzz_report_json(const FuzzRunInfo& info, const FuzzResult& result,
                             const std::vector<FuzzSeed>& seeds,
                             const std::vector<FuzzMutator>& mutators) {
  (void)seeds;
  Json j{{"schema", "voxrig-fuzz-reader-report/1"},
         {"reader", info.reader},
         {"protocol", info.protocol},
         {"profile", std::string(to_string(info.profile))},
         {"codes", std::string(to_string(info.codes))},
         {"seed", seed_text(info.seed)},
         {"runs_limit", info.runs},
         {"seconds_limit", info.seconds},
         {"jobs", info.jobs},
         {"seed_files", info.seeds},
         {"mutators", info.mutators},
         {"expected_failures", info.expected},
         {"executions", result.execs},
         {"minimize_executions", result.minimize_execs},
         {"known_hits", result.known_hits},
         {"skipped_other_family", result.skipped},
         {"seconds", result.seconds},
         {"execs_per_second", result.seconds > 0 ? double(result.execs) / result.seconds : 0.0},
         {"interrupted", result.interrupted}};
  j["directed_executions"] = result.directed_execs;
  j["rules"] = rules_json(info, result);
  Json classes = Json::array();
  for (const FuzzFinding& f : result.findings) classes.push_back(finding_json(info, f, mutators));
  j["classes"] = classes;
  return text(j) + "\n";
}

std::vector<FuzzOutputFile> fuzz_output_files(const FuzzRunInfo& info, const FuzzResult& result,
                                              const std::vector<FuzzSeed>& seeds,
                                              const std::vector<FuzzMutator>& mutators) {
  std::vector<FuzzOutputFile> files;
  files.push_back({"report.json", bytes_of(fuzz_report_json(info, result, seeds, mutators))});
  std::string xfail =
      "# Suggested expected-failure lines (voxrig fuzz-reader): pass this file back with\n"
      "# --expected to skip these classes, or add the cases to the corpus and fix the reader.\n";
  Json manifest{{"schema", "voxrig-manifest/1"},
                {"suite", "voxrig-fuzz-reader"},
                {"suite_version", suite_version()},
                {"spec_version", spec_version()},
                {"cases", Json::array()}};
  for (const FuzzFinding& f : result.findings) {
    const std::string dir = "cases/" + stem(f.id) + "/";
    const std::string ext = extension(f.input);
    files.push_back({dir + "input." + ext, f.input});
    files.push_back({dir + "finding.json", bytes_of(text(finding_json(info, f, mutators)) + "\n")});
    const std::string line = expected_failure_line(info, f);
    files.push_back({dir + "expected-failure.txt", bytes_of(line + "\n")});
    xfail += line + "\n";

    // The case-source entry and the manifest entry carry the reference's verdict under every
    // profile of the file's format: the declared expectation, to be reviewed against the spec.
    const Format format = detect_format(f.input);
    const std::string format_name(to_string(format));
    Json expect_src = Json::object(), expect_man = Json::object();
    bool any_reject = false;
    for (Profile p : profiles_of(f.input)) {
      const std::string pn(to_string(p));
      const ReferenceAnswer a = reference_answer(f.input, p);
      any_reject = any_reject || !a.accept;
      expect_src[pn] = a.accept ? "accept" : a.code;
      if (a.accept) {
        const std::string dump = "dumps/" + f.id + "." + pn + ".json";
        files.push_back({"corpus/" + dump, bytes_of(a.dump)});
        expect_man[pn] = {{"verdict", "accept"}, {"dump", dump}};
      } else {
        expect_man[pn] = {{"verdict", "reject"}, {"error", a.code}};
      }
    }
    const std::string rule =
        "found by voxrig fuzz-reader (" + f.cls.key() + "): name the spec rule before adding";
    const std::string note = "expectation = the reference's verdict, review it against the spec; " +
                             f.seed_origin + " + " + std::to_string(f.chain.size()) +
                             " mutation(s) (finding.json), then minimized";
    Json tags{"fuzz", any_reject ? "negative" : "positive"};
    Json src{{"id", f.id},           {"format", format_name}, {"hex", hex_lines(f.input)},
             {"level", "required"},  {"tags", tags},          {"rule", rule},
             {"expect", expect_src}, {"note", note}};
    files.push_back({dir + "case.json", bytes_of(text(src) + "\n")});
    const std::string file = "files/" + f.id + "." + ext;
    files.push_back({"corpus/" + file, f.input});
    const Sha256 digest = sha256(f.input);
    manifest["cases"].push_back({{"id", f.id},
                                 {"path", file},
                                 {"sha256", hex(digest)},
                                 {"format", format_name},
                                 {"tags", tags},
                                 {"rule", rule},
                                 {"level", "required"},
                                 {"expect", expect_man}});
  }
  files.push_back({"expected-failures.txt", bytes_of(xfail)});
  files.push_back({"corpus/manifest.json", bytes_of(text(manifest) + "\n")});
  return files;
}

std::string fuzz_summary_text(const FuzzRunInfo& info, const FuzzResult& result) {
  std::string s;
  for (const FuzzFinding& f : result.findings) {
    s += "DISAGREE " + f.id + " (" + std::to_string(f.hits) + " hit" + (f.hits == 1 ? "" : "s") +
         ")\n  expected " + f.cls.expected + ", got " + f.cls.got;
    if (!f.cls.path.empty()) s += " at " + f.cls.path;
    s += "\n  " + f.reason.substr(0, 300) + "\n  from " + f.seed_origin + " + " +
         std::to_string(f.chain.size()) + " mutation(s), minimized " +
         std::to_string(f.chained.size()) + " -> " + std::to_string(f.input.size()) + " bytes\n";
  }
  char line[256];
  const double rate = result.seconds > 0 ? double(result.execs) / result.seconds : 0;
  std::snprintf(
      line, sizeof line,
      "%s: %llu executions in %.1f s (%.1f execs/s, %s, +%llu minimizing), %llu known\n",
      std::string(to_string(info.profile)).c_str(), static_cast<unsigned long long>(result.execs),
      result.seconds, rate, info.protocol.empty() ? "?" : info.protocol.c_str(), static_cast<unsigned long long>(result.minimize_execs),
      static_cast<unsigned long long>(result.known_hits));
  s += line;
  if (result.interrupted) s += "interrupted\n";
  if (!info.breakable.empty()) {
    const std::vector<std::string> missed = never_reached(info, result);
    s += "rules broken: " + std::to_string(info.breakable.size() - missed.size()) + " of " +
         std::to_string(info.breakable.size()) + " breakable (" +
         std::to_string(result.directed_execs) + " rule-directed executions)";
    for (size_t i = 0; i < missed.size(); ++i) s += (i ? " " : "; never reached: ") + missed[i];
    s += "\n";
  }
  s += std::to_string(result.execs) + " executions, " + std::to_string(result.findings.size()) +
       " classes of disagreement\n";
  return s;
}

}  // namespace voxrig::conform
