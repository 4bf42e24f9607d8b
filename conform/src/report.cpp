// What a conform run prints and writes: the header, the stdout summary, JUnit XML and the JSON
// report. Reader output is untrusted, so every string is repaired to UTF-8 before it is written
// and XML gets only the characters XML 1.0 allows.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>

#include "voxrig/conform/conform.h"
#include "voxrig/json_out.h"
#include "voxrig/utf8.h"

namespace voxrig::conform {
namespace {

constexpr size_t kMaxListedLines = 100;
constexpr size_t kMaxLineChars = 200;  // a summary line stays readable in a CI log

std::string utf8(std::string_view s) {
  return repair_utf8({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}

std::string fixed(double v, int decimals) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  return ec == std::errc() ? std::string(buf, end) : "0";
}

std::string quote(std::string_view s) { return json_quote(utf8(s)); }

// XML 1.0 text or attribute value: escapes markup, drops what XML cannot carry (C0 controls
// other than tab/newline/CR, U+FFFE, U+FFFF) after repairing UTF-8.
std::string xml(std::string_view raw) {
  const std::string s = utf8(raw);
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) == 0xBE ||
         static_cast<unsigned char>(s[i + 2]) == 0xBF)) {
      out += '?';
      i += 2;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += c < 0x20 ? '?' : static_cast<char>(c);
    }
  }
  return out;
}

std::string item_name(const CaseResult& r) {
  return r.check == Check::Dump ? r.id : r.id + " [" + std::string(to_string(r.check)) + "]";
}

bool is_bad(Verdict v) {
  return v == Verdict::Fail || v == Verdict::Crash || v == Verdict::Timeout || v == Verdict::Xpass;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
  return out;
}

// "a b c".
std::string join(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& s : list) out += (out.empty() ? "" : " ") + s;
  return out.empty() ? "nothing" : out;
}

// Results per second of wall time (0 for an instant run).
double throughput(size_t n, double seconds) { return seconds > 0 ? double(n) / seconds : 0; }

// A summary line cut to kMaxLineChars.
std::string clip_line(std::string line) {
  if (line.size() <= kMaxLineChars) return line;
  size_t cut = kMaxLineChars - 3;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
  return line.substr(0, cut) + "...";
}

// The header's protocol line: serve and what the hello claims, or one-shot and why.
std::string protocol_text(const RunInfo& info) {
  if (info.protocol == "serve")
    return clip_line("serve (one process per worker; claims: " + join(info.claimed_profiles) + ")");
  return clip_line("one process per request" +
                   (info.protocol_note.empty() ? std::string()
                                               : " (no serve: " + info.protocol_note + ")"));
}

// "breaks SKEL-3 (the SKEL reserved byte ...); obeys PROF-1 (...)": the rules of a result.
std::string rules_text(const CaseResult& r) {
  std::string out;
  for (const RuleNote& n : r.rules) {
    if (!out.empty()) out += "; ";
    out += std::string(to_string(n.relation)) + " " + n.id;
    if (!n.summary.empty()) out += " (" + n.summary + ")";
  }
  return out;
}

std::string rule_ids(const CaseResult& r) {
  std::string out;
  for (const RuleNote& n : r.rules) out += (out.empty() ? "" : " ") + n.id;
  return out;
}

bool is_capability(Check c) { return c == Check::Compile || c == Check::Pose || c == Check::Mesh; }

std::string section_of(const CaseResult& r) {
  return r.section.empty() ? "(no rule in the manifest)" : r.section;
}

// The summary's rules line: the rules the case breaks (every other rule it obeys is noise for a
// failure); for an accepted case the reader rejected, the rules of the reader's error code; for
// an accepted case otherwise, the IDs it obeys. Cut to kMaxLineChars.
std::string failure_rules_line(const CaseResult& r) {
  std::string out;
  auto add = [&](const RuleNote& n, bool summary) {
    out += (out.empty() ? "" : "; ") + n.id;
    if (summary && !n.summary.empty()) out += " (" + n.summary + ")";
  };
  for (const RuleNote& n : r.rules)
    if (n.relation == RuleRelation::Breaks) add(n, true);
  if (!out.empty()) return "breaks " + out;
  for (const RuleNote& n : r.reader_code_rules) add(n, true);
  if (!out.empty()) return "the reader's error code is that of " + out;
  for (const RuleNote& n : r.rules) add(n, false);
  return out.empty() ? out : "obeys " + out;
}

// The FAIL line, then what the failure is about: rules, spec section, file, hex context.
std::string result_line(const CaseResult& r, const std::string& golden_dir,
                        const std::string& indent = "") {
  std::string tag = upper(to_string(r.verdict));
  tag.resize(8, ' ');
  std::string out = clip_line(indent + tag + r.id + "  " + r.profile + "  " +
                              std::string(to_string(r.check)) + ": " + utf8(r.reason)) +
                    "\n";
  const std::string pad = indent + "        ";
  if (const std::string rules = failure_rules_line(r); !rules.empty())
    out += clip_line(pad + "rules: " + utf8(rules)) + "\n";
  if (!r.section.empty()) out += pad + "spec:  " + r.section + "\n";
  if (!r.path.empty())
    out += pad + "file:  " + utf8(golden_dir.empty() ? r.path : golden_dir + "/" + r.path) + "\n";
  if (!r.hex_context.empty()) out += pad + "at:    " + r.hex_context + "\n";
  return out;
}

// "level reached: dumps (run: writers; next: writers; partial: 2 of 4 profiles)": the rung the
// run reached, and why that may not be full conformance.
std::string level_line(const RunInfo& info, const Summary& summary) {
  std::string out = "level reached: " + std::string(to_string(summary.level_reached));
  std::vector<std::string> notes;
  if (summary.level_run != summary.level_reached)
    notes.push_back("run: " + std::string(to_string(summary.level_run)));
  if (summary.level_reached < ConformanceLevel::Capabilities)
    notes.push_back("next: " + std::string(to_string(ConformanceLevel(
                                   int(summary.level_reached) + 1))));
  const auto partial = partial_run_notes(info);
  if (!partial.empty()) {
    std::string p = "partial:";
    for (size_t i = 0; i < partial.size(); ++i) p += (i ? ", " : " ") + partial[i];
    notes.push_back(p);
  }
  for (size_t i = 0; i < notes.size(); ++i) out += (i ? "; " : " (") + notes[i];
  return out + (notes.empty() ? "\n" : ")\n");
}

}  // namespace

std::string progress_text(size_t done, size_t total, double seconds, const CaseResult& r) {
  char rate[32];
  std::snprintf(rate, sizeof rate, " %.1f/s ", seconds > 0 ? double(done) / seconds : 0.0);
  std::string line = "[" + std::to_string(done) + "/" + std::to_string(total) + rate + "] " +
                     r.id + " " + r.profile;
  if (r.check != Check::Dump) line += " " + std::string(to_string(r.check));
  return line;
}

std::string header_text(const RunInfo& info) {
  std::string out = "voxrig conform: suite " + info.suite + " " + info.suite_version;
  if (!info.spec_version.empty()) out += ", voxrig spec " + info.spec_version;
  if (!info.corpus_version.empty()) out += ", golden corpus " + info.corpus_version;
  out += ", manifest sha256 " + info.manifest_sha256 + "\n";
  out += "  golden:   " + info.golden_dir + "\n";
  out += "  reader:   " + info.reader + "\n";
  out += "  profiles:";
  for (const auto& p : info.profiles) out += " " + p;
  out += "\n  level: " + std::string(to_string(level_of_run(info))) +
         "   codes: " + std::string(to_string(info.codes)) +
         "   cases: " + (info.count_recommended ? "all" : "required") +
         "   writer checks: " + (info.writer ? "on" : "off") +
         "   jobs: " + std::to_string(info.jobs) + "   timeout: " + fixed(info.timeout_seconds, 1) +
         " s\n";
  if (!info.capabilities.empty() || !info.dump) {
    out += "  capabilities:";
    for (const auto& c : info.capabilities) out += " " + c;
    out += info.dump ? " (and the reader cases)\n" : " (reader cases not run: --no-dump)\n";
  }
  if (!info.protocol.empty()) out += "  protocol: " + protocol_text(info) + "\n";
  if (!info.expected_failures.empty())
    out += "  expected failures: " + info.expected_failures + "\n";
  if (!info.filter.empty()) out += "  filter: " + info.filter + "\n";
  return out;
}

std::string summary_text(const RunInfo& info, const std::vector<CaseResult>& results,
                         const Summary& summary) {
  std::string out;
  // Failures grouped by spec section (sections in order of their first failure); capability
  // failures by capability and section.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const CaseResult*>> by_section;
  for (const CaseResult& r : results) {
    if (!r.counted || !is_bad(r.verdict)) continue;
    // Capability failures are grouped by capability first: "pose, docs/spec/evaluation.md#D19".
    const std::string group = is_capability(r.check)
                                  ? std::string(to_string(r.check)) + ", " + section_of(r)
                                  : section_of(r);
    auto& list = by_section[group];
    if (list.empty()) order.push_back(group);
    list.push_back(&r);
  }
  size_t listed = 0, unlisted = 0;
  for (const auto& section : order) {
    const auto& list = by_section[section];
    out += "-- " + section + ": " + std::to_string(list.size()) + " failed\n";
    for (const CaseResult* r : list) {
      if (listed++ < kMaxListedLines)
        out += result_line(*r, info.golden_dir);
      else
        ++unlisted;
    }
  }
  if (unlisted) out += "... and " + std::to_string(unlisted) + " more (see --junit / --report)\n";
  const Tally& c = summary.counted;
  const Tally& rec = summary.recommended;
  if (rec.passed() + rec.failed() + rec.xfail > 0) {
    out += "recommended cases (reported, not counted; --recommended counts them):\n";
    size_t n = 0;
    for (const CaseResult& r : results)
      if (!r.counted && is_bad(r.verdict) && n++ < kMaxListedLines)
        out += result_line(r, info.golden_dir, "  ");
    out += "  recommended: " + std::to_string(rec.passed()) + " passed, " +
           std::to_string(rec.failed()) + " failed, " + std::to_string(rec.xfail) + " xfail\n";
  }
  // Per capability (check): counted results only, in the order of the Check enum.
  std::map<int, Tally> by_check;
  for (const CaseResult& r : results)
    if (r.counted) by_check[int(r.check)].add(r.verdict);
  if (by_check.size() > 1 || (by_check.size() == 1 && by_check.begin()->first != 0)) {
    out += "by capability:";
    for (const auto& [check, t] : by_check)
      out += "  " + std::string(to_string(Check(check))) + " " + std::to_string(t.passed()) +
             " passed, " + std::to_string(t.failed()) + " failed;";
    out.back() = '\n';
  }
  out += "crash: " + std::to_string(c.crash) + "\n";
  out += "timeout: " + std::to_string(c.timeout) + "\n";
  out += "xfail: " + std::to_string(c.xfail) + "\n";
  if (c.xpass)
    out += "xpass: " + std::to_string(c.xpass) + " (listed as expected failures but passing)\n";
  out += "loose: " + std::to_string(c.loose) +
         (info.codes == CodeMode::Loose
              ? " (accept/reject matched, error code differed; --codes loose)\n"
              : "\n");
  out += "skipped: " + std::to_string(summary.skipped) +
         (summary.skipped ? " (checks that do not apply, not failures: a profile of the other "
                            "format family, a writer check the manifest leaves out)\n"
                          : "\n");
  if (info.protocol == "oneshot" && info.profiles.size() == 4)
    out += "all four profiles ran: a reader claims fewer with --profile or the \"profiles\" of "
           "its serve hello (docs/spec/protocols.md)\n";
  if (!info.unclaimed_profiles.empty())
    out += clip_line("not claimed, not run: " + join(info.unclaimed_profiles) +
                     " (the reader's serve hello claims " + join(info.claimed_profiles) +
                     "; --profile P runs one anyway)") +
           "\n";
  out += "time: " + fixed(info.seconds, 2) + " s, " +
         fixed(throughput(results.size(), info.seconds), 1) + " checks/s" +
         (info.protocol.empty() ? "" : " (" + info.protocol + ")") + "\n";
  out += level_line(info, summary);
  out += std::to_string(c.passed()) + " passed, " + std::to_string(c.failed()) + " failed\n";
  return out;
}

std::string junit_xml(const RunInfo& info, const std::vector<CaseResult>& results) {
  struct Group {
    std::string body;
    size_t tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
  };
  std::map<std::string, Group> groups;
  // Reader checks group by profile; capability checks by "<capability> <profile>".
  auto group_of = [](const CaseResult& r) {
    return is_capability(r.check) ? std::string(to_string(r.check)) + " " + r.profile : r.profile;
  };
  std::vector<std::string> order(info.profiles.begin(), info.profiles.end());
  for (const CaseResult& r : results) {
    const std::string key = group_of(r);
    if (std::find(order.begin(), order.end(), key) == order.end()) order.push_back(key);
    Group& g = groups[key];
    ++g.tests;
    g.seconds += r.seconds;
    g.body += "    <testcase classname=\"voxrig.conform." + xml(r.profile) + "\" name=\"" +
              xml(item_name(r)) + "\" time=\"" + fixed(r.seconds, 3) + "\"";
    const bool bad = is_bad(r.verdict);
    if (!bad && r.verdict != Verdict::Xfail) {
      g.body += "/>\n";
      continue;
    }
    // The message says what broke and where; the text adds the rule summaries and the context.
    std::string message = r.reason;
    if (!r.rules.empty() || !r.section.empty())
      message += " [rules: " + rule_ids(r) + "; spec: " + section_of(r) + "; file: " + r.path + "]";
    std::string detail = result_line(r, info.golden_dir);
    if (!r.output_head.empty()) detail += "--- reader stdout (head) ---\n" + r.output_head + "\n";
    if (!r.stderr_tail.empty()) detail += "--- reader stderr (tail) ---\n" + r.stderr_tail;
    g.body += ">\n      <properties>\n";
    auto prop = [&](std::string_view name, std::string_view value) {
      g.body +=
          "        <property name=\"" + std::string(name) + "\" value=\"" + xml(value) + "\"/>\n";
    };
    prop("capability", r.capability);
    prop("rules", rule_ids(r));
    prop("rule_summary", rules_text(r));
    prop("spec_section", section_of(r));
    prop("file", r.path);
    if (r.offset >= 0) prop("offset", std::to_string(r.offset));
    if (!r.hex_context.empty()) prop("hex_context", r.hex_context);
    g.body += "      </properties>\n";
    if (!r.counted || r.verdict == Verdict::Xfail) {
      ++g.skipped;
      const std::string why =
          r.verdict == Verdict::Xfail
              ? "expected failure (" + std::string(to_string(r.observed)) + "): " + r.reason
              : "recommended case, not counted (" + std::string(to_string(r.verdict)) +
                    "): " + r.reason;
      g.body += "      <skipped message=\"" + xml(why) + "\"/>\n";
    } else if (r.verdict == Verdict::Fail || r.verdict == Verdict::Xpass) {
      ++g.failures;
      g.body += "      <failure type=\"" + std::string(to_string(r.verdict)) + "\" message=\"" +
                xml(message) + "\">" + xml(detail) + "</failure>\n";
    } else {
      ++g.errors;
      g.body += "      <error type=\"" + std::string(to_string(r.verdict)) + "\" message=\"" +
                xml(message) + "\">" + xml(detail) + "</error>\n";
    }
    g.body += "    </testcase>\n";
  }
  size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  for (const auto& [name, g] : groups) {
    tests += g.tests;
    failures += g.failures;
    errors += g.errors;
    skipped += g.skipped;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"voxrig conform\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" +
         std::to_string(skipped) + "\" time=\"" + fixed(info.seconds, 3) + "\">\n";
  auto property = [](std::string_view name, std::string_view value) {
    return "      <property name=\"" + std::string(name) + "\" value=\"" + xml(value) + "\"/>\n";
  };
  for (const auto& profile : order) {
    auto it = groups.find(profile);
    if (it == groups.end()) continue;
    const Group& g = it->second;
    out += "  <testsuite name=\"" + xml(profile) + "\" tests=\"" + std::to_string(g.tests) +
           "\" failures=\"" + std::to_string(g.failures) + "\" errors=\"" +
           std::to_string(g.errors) + "\" skipped=\"" + std::to_string(g.skipped) + "\" time=\"" +
           fixed(g.seconds, 3) + "\">\n    <properties>\n";
    out += property("suite_version", info.suite_version);
    out += property("spec_version", info.spec_version);
    out += property("corpus_version", info.corpus_version);
    out += property("manifest_sha256", info.manifest_sha256);
    out += property("reader", info.reader);
    out += property("codes", to_string(info.codes));
    out += property("level", to_string(level_of_run(info)));
    out += property("cases", info.count_recommended ? "all" : "required");
    out += "    </properties>\n" + g.body + "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

std::string report_json(const RunInfo& info, const std::vector<CaseResult>& results,
                        const Summary& summary) {
  auto tally = [](const Tally& t) {
    return "{\"passed\": " + std::to_string(t.passed()) +
           ", \"failed\": " + std::to_string(t.failed()) + ", \"pass\": " + std::to_string(t.pass) +
           ", \"loose\": " + std::to_string(t.loose) + ", \"fail\": " + std::to_string(t.fail) +
           ", \"crash\": " + std::to_string(t.crash) +
           ", \"timeout\": " + std::to_string(t.timeout) +
           ", \"xfail\": " + std::to_string(t.xfail) + ", \"xpass\": " + std::to_string(t.xpass) +
           "}";
  };
  std::string out = "{\n  \"schema\": \"voxrig-conform-report/2\",\n";
  out += "  \"suite\": " + quote(info.suite) + ",\n";
  out += "  \"suite_version\": " + quote(info.suite_version) + ",\n";
  out += "  \"spec_version\": " + quote(info.spec_version) + ",\n";
  out += "  \"corpus_version\": " + quote(info.corpus_version) + ",\n";
  out += "  \"manifest_sha256\": " + quote(info.manifest_sha256) + ",\n";
  out += "  \"golden\": " + quote(info.golden_dir) + ",\n";
  out += "  \"reader\": " + quote(info.reader) + ",\n";
  out += "  \"profiles\": [";
  for (size_t i = 0; i < info.profiles.size(); ++i)
    out += (i ? ", " : "") + quote(info.profiles[i]);
  out += "],\n  \"codes\": \"" + std::string(to_string(info.codes)) + "\",\n";
  out += "  \"level\": {\"run\": \"" + std::string(to_string(summary.level_run)) +
         "\", \"reached\": \"" + std::string(to_string(summary.level_reached)) +
         "\", \"partial\": [";
  const auto notes = partial_run_notes(info);
  for (size_t i = 0; i < notes.size(); ++i) out += (i ? ", " : "") + quote(notes[i]);
  out += "]},\n";
  out += "  \"cases\": \"" + std::string(info.count_recommended ? "all" : "required") + "\",\n";
  out += "  \"dump_content\": " + std::string(info.dump_content ? "true" : "false") + ",\n";
  out += "  \"writer\": " + std::string(info.writer ? "true" : "false") + ",\n";
  out += "  \"dump\": " + std::string(info.dump ? "true" : "false") + ",\n";
  out += "  \"capabilities\": [";
  for (size_t i = 0; i < info.capabilities.size(); ++i)
    out += (i ? ", " : "") + quote(info.capabilities[i]);
  out += "],\n";
  out += "  \"filter\": " + quote(info.filter) + ",\n";
  out += "  \"expected_failures\": " + quote(info.expected_failures) + ",\n";
  out += "  \"jobs\": " + std::to_string(info.jobs) + ",\n";
  out += "  \"timeout_s\": " + fixed(info.timeout_seconds, 3) + ",\n";
  out += "  \"time_s\": " + fixed(info.seconds, 3) + ",\n";
  out += "  \"checks_per_s\": " + fixed(throughput(results.size(), info.seconds), 3) + ",\n";
  out += "  \"protocol\": " + quote(info.protocol) + ",\n";
  out += "  \"protocol_note\": " + quote(info.protocol_note) + ",\n";
  out += "  \"unclaimed_profiles\": [";
  for (size_t i = 0; i < info.unclaimed_profiles.size(); ++i)
    out += (i ? ", " : "") + quote(info.unclaimed_profiles[i]);
  out += "],\n";
  std::map<std::string, size_t> failed_by_section;  // counted failures per spec section
  for (const CaseResult& r : results)
    if (r.counted && is_bad(r.verdict)) ++failed_by_section[section_of(r)];
  std::string by_section = "{";
  for (const auto& [section, n] : failed_by_section)
    by_section += (by_section.size() > 1 ? ", " : "") + quote(section) + ": " + std::to_string(n);
  out += "  \"summary\": {\"counted\": " + tally(summary.counted) +
         ",\n              \"recommended\": " + tally(summary.recommended) +
         ",\n              \"skipped\": " + std::to_string(summary.skipped) +
         ",\n              \"failed_by_section\": " + by_section + "}},\n";
  out += "  \"results\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const CaseResult& r = results[i];
    out += i ? ",\n    " : "\n    ";
    out += "{\"id\": " + quote(r.id) + ", \"profile\": " + quote(r.profile) + ", \"check\": \"" +
           std::string(to_string(r.check)) + "\", \"level\": \"" + std::string(to_string(r.level)) +
           "\", \"counted\": " + (r.counted ? "true" : "false") + ", \"verdict\": \"" +
           std::string(to_string(r.verdict)) + "\", \"reason\": " + quote(r.reason) +
           ", \"expected\": " + quote(r.expected) +
           ", \"exit_code\": " + std::to_string(r.exit_code) +
           ", \"signal\": " + std::to_string(r.signal) +
           ", \"time_ms\": " + fixed(r.seconds * 1000.0, 3);
    if (r.verdict == Verdict::Xfail || r.verdict == Verdict::Xpass)
      out += ", \"observed\": \"" + std::string(to_string(r.observed)) +
             "\", \"listed_reason\": " + quote(r.listed_reason);
    if (!r.stderr_tail.empty()) out += ", \"stderr_tail\": " + quote(r.stderr_tail);
    out += ",\n     \"capability\": " + quote(r.capability) + ", \"path\": " + quote(r.path) +
           ", \"section\": " + quote(r.section) + ", \"rules\": [";
    for (size_t k = 0; k < r.rules.size(); ++k)
      out += (k ? ", " : "") + std::string("{\"id\": ") + quote(r.rules[k].id) +
             ", \"relation\": \"" + std::string(to_string(r.rules[k].relation)) +
             "\", \"summary\": " + quote(r.rules[k].summary) +
             ", \"section\": " + quote(r.rules[k].section) + "}";
    out += "]";
    if (r.offset >= 0) out += ", \"offset\": " + std::to_string(r.offset);
    if (!r.hex_context.empty()) out += ", \"hex_context\": " + quote(r.hex_context);
    if (!r.output_head.empty()) out += ", \"output_head\": " + quote(r.output_head);
    if (!r.quality.empty()) out += ", \"quality\": " + quote(r.quality);
    out += "}";
  }
  out += results.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace voxrig::conform
