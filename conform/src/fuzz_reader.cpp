// The fuzz-reader loop (voxrig/conform/fuzz_reader.h): plan an execution, run both sides, classify,
// minimize each new class, de-duplicate.
#include "voxrig/conform/fuzz_reader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

#include "voxrig/any_format.h"
#include "voxrig/error.h"

namespace voxrig::conform {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

std::string expected_text(const ReferenceAnswer& ref) {
  return ref.accept ? "accept" : "reject " + ref.code;
}

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string bounded(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n); }

}  // namespace

ReferenceAnswer reference_answer(std::span<const uint8_t> bytes, Profile profile) {
  ReferenceAnswer a;
  auto r = dump_any(bytes, profile, Limits{});
  if (r.ok()) {
    a.accept = true;
    a.dump = std::move(r).value();
  } else {
    a.code = std::string(to_string(r.error().code));
  }
  return a;
}

bool profile_applies(std::span<const uint8_t> bytes, Profile profile) {
  const Format f = detect_format(bytes);
  if (f == Format::Unknown) return true;
  const bool vfp_profile = profile == Profile::VfpStatic || profile == Profile::VfpRig;
  return (f == Format::Vfp) == vfp_profile;
}

std::string FuzzClass::key() const {
  std::string k = kind + " " + expected + " / " + got;
  if (!path.empty()) k += " " + path;
  return k;
}

std::optional<FuzzClass> classify(const ReferenceAnswer& ref, const RunOutcome& run, CodeMode codes,
                                  std::string* reason) {
  DumpExpectation expect;
  expect.accept = ref.accept;
  expect.error = ref.code;
  expect.dump = ref.dump;
  const Judgement j = judge_dump(expect, run, codes);
  if (reason) *reason = j.reason;
  if (j.verdict == Verdict::Pass || j.verdict == Verdict::Loose) return std::nullopt;
  FuzzClass c;
  c.expected = expected_text(ref);
  if (j.verdict == Verdict::Timeout) {
    c.kind = c.got = "timeout";
    return c;
  }
  if (j.verdict == Verdict::Crash) {
    c.kind = c.got = "crash";
    return c;
  }
  if (run.exit_code == 1) {
    const auto code = rejection_code(run.out);
    c.got = "reject " + code.value_or("?");
    c.kind = ref.accept ? "verdict" : "code";
    return c;
  }
  c.got = "accept";
  if (!ref.accept) {
    c.kind = "verdict";
    return c;
  }
  c.kind = "dump";
  c.path = compare_dump_json(ref.dump, run.out).path;
  return c;
}

std::string class_case_id(const FuzzClass& c, Profile profile) {
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", unsigned(fnv1a(c.key()) & 0xFFFFFFFFu));
  return "fuzz/" + std::string(to_string(profile)) + "/" + c.kind + "_" + hex;
}

void plan_execution(uint64_t seed, uint64_t exec, size_t seeds, size_t mutators, size_t max_chain,
                    size_t* seed_index, std::vector<FuzzStep>* chain) {
  uint64_t state = seed ^ (exec * 0xD1B54A32D192ED03ull);
  splitmix64(state);
  *seed_index = size_t(splitmix64(state) % std::max<size_t>(seeds, 1));
  const size_t n = 1 + size_t(splitmix64(state) % std::max<size_t>(max_chain, 1));
  chain->clear();
  for (size_t i = 0; i < n; ++i) {
    const size_t m = size_t(splitmix64(state) % std::max<size_t>(mutators, 1));
    chain->push_back({m, splitmix64(state)});
  }
}

FuzzBytes apply_chain(const FuzzBytes& bytes, const std::vector<FuzzStep>& chain,
                      const std::vector<FuzzMutator>& mutators, size_t max_input) {
  FuzzBytes cur = bytes;
  for (const FuzzStep& s : chain) {
    cur = mutators[s.mutator].apply(cur, s.seed);
    if (cur.size() > max_input) cur.resize(max_input);
  }
  return cur;
}

namespace {

/// One minimization: shorten the chain, then delete byte ranges, keeping the class.
class Minimizer {
 public:
  Minimizer(const std::vector<FuzzMutator>& mutators, const FuzzRunner& runner,
            const FuzzOptions& o)
      : mutators_(mutators), runner_(runner), o_(o) {}

  uint64_t execs = 0;

  void run(FuzzFinding& f, const FuzzBytes& seed_bytes) {
    // Drop chain steps from the last one back while the class survives.
    for (size_t i = f.chain.size(); i-- > 0 && f.chain.size() > 1 && budget_left();) {
      std::vector<FuzzStep> shorter = f.chain;
      shorter.erase(shorter.begin() + ptrdiff_t(i));
      FuzzBytes in = apply_chain(seed_bytes, shorter, mutators_, o_.max_input);
      if (keeps(f.cls, {in}) == 0) {
        f.chain = std::move(shorter);
        f.chained = std::move(in);
      }
    }
    FuzzBytes cur = f.chained;
    // Structural reductions first (drop a whole section), while any keeps the class.
    for (bool shrunk = true; shrunk && o_.reduce && budget_left();) {
      shrunk = false;
      std::vector<FuzzBytes> all = o_.reduce(cur);
      for (size_t at = 0; at < all.size() && budget_left() && !shrunk;) {
        std::vector<FuzzBytes> cands;
        for (; at < all.size() && cands.size() < std::max<size_t>(o_.batch, 1); ++at)
          if (all[at].size() < cur.size()) cands.push_back(std::move(all[at]));
        const size_t hit = keeps(f.cls, cands);
        if (hit < cands.size()) {
          cur = std::move(cands[hit]);
          shrunk = true;
        }
      }
    }
    // Delete ranges: halves, quarters, ... single bytes; each round tries one batch of candidate
    // deletions and keeps the first (lowest offset) that keeps the class.
    for (size_t chunk = std::max<size_t>(cur.size() / 2, 1); budget_left();) {
      bool shrunk = false;
      for (size_t start = 0; start < cur.size() && budget_left() && !shrunk;) {
        std::vector<FuzzBytes> cands;
        std::vector<size_t> at;
        for (; start < cur.size() && cands.size() < std::max<size_t>(o_.batch, 1); start += chunk) {
          FuzzBytes c = cur;
          c.erase(c.begin() + ptrdiff_t(start),
                  c.begin() + ptrdiff_t(std::min(cur.size(), start + chunk)));
          cands.push_back(std::move(c));
          at.push_back(start);
        }
        const size_t hit = keeps(f.cls, cands);
        if (hit < cands.size()) {
          cur = std::move(cands[hit]);
          shrunk = true;
        }
      }
      if (!shrunk) {
        if (chunk == 1) break;
        chunk /= 2;
      } else {
        chunk = std::min(chunk, std::max<size_t>(cur.size() / 2, 1));
      }
    }
    f.input = std::move(cur);
    f.reference = reference_answer(f.input, o_.profile);
    RunOutcome run = std::move(runner_({f.input})[0]);
    ++execs;
    classify(f.reference, run, o_.codes, &f.reason);
    f.reader_out = bounded(run.out, 4096);
  }

 private:
  bool budget_left() const { return execs < o_.minimize_budget; }

  /// The index of the first candidate that keeps class `c`, or cands.size().
  size_t keeps(const FuzzClass& c, const std::vector<FuzzBytes>& cands) {
    if (cands.empty()) return 0;
    std::vector<RunOutcome> runs = runner_(cands);
    execs += cands.size();
    for (size_t i = 0; i < cands.size(); ++i) {
      if (!profile_applies(cands[i], o_.profile)) continue;
      const auto got = classify(reference_answer(cands[i], o_.profile), runs[i], o_.codes, nullptr);
      if (got && *got == c) return i;
    }
    return cands.size();
  }

  const std::vector<FuzzMutator>& mutators_;
  const FuzzRunner& runner_;
  const FuzzOptions& o_;
};

}  // namespace

FuzzResult fuzz_reader(const std::vector<FuzzSeed>& seeds, const std::vector<FuzzMutator>& mutators,
                       const FuzzRunner& runner, const FuzzOptions& o) {
  FuzzResult result;
  const auto t0 = Clock::now();
  std::map<std::string, size_t> by_key;  // class key -> findings index
  Minimizer minimizer(mutators, runner, o);
  const size_t batch = std::max<size_t>(o.batch, 1);
  const size_t random_mutators =
      o.random_mutators == 0 ? mutators.size() : std::min(o.random_mutators, mutators.size());
  size_t directed_at = 0;  // the next FuzzOptions::directed entry
  uint64_t exec = 0;
  while (true) {
    if (o.runs != 0 && exec >= o.runs) break;
    if (o.seconds > 0 && since(t0) >= o.seconds) break;
    if (o.stop && o.stop()) {
      result.interrupted = true;
      break;
    }
    const size_t n = o.runs != 0 ? size_t(std::min<uint64_t>(batch, o.runs - exec)) : batch;
    std::vector<FuzzBytes> inputs(n);
    std::vector<size_t> seed_of(n);
    std::vector<std::vector<FuzzStep>> chains(n);
    for (size_t i = 0; i < n; ++i) {
      // Rule-directed executions first; a breaker that does not apply to its seed is skipped.
      while (directed_at < o.directed.size() && inputs[i].empty()) {
        const auto [s, m] = o.directed[directed_at++];
        seed_of[i] = s;
        chains[i] = {{m, 0}};
        inputs[i] = apply_chain(seeds[s].bytes, chains[i], mutators, o.max_input);
      }
      if (!inputs[i].empty()) {
        ++result.directed_execs;
        continue;
      }
      plan_execution(o.seed, exec + i, seeds.size(), random_mutators, o.max_chain, &seed_of[i],
                     &chains[i]);
      inputs[i] = apply_chain(seeds[seed_of[i]].bytes, chains[i], mutators, o.max_input);
    }
    std::vector<RunOutcome> runs = runner(inputs);
    if (o.stop && o.stop()) {  // a batch cut short by SIGINT is not judged
      result.interrupted = true;
      break;
    }
    for (size_t i = 0; i < n; ++i) {
      if (!profile_applies(inputs[i], o.profile)) {
        ++result.skipped;
        continue;
      }
      const ReferenceAnswer ref = reference_answer(inputs[i], o.profile);
      if (auto it = o.code_rules.find(ref.code); !ref.accept && it != o.code_rules.end())
        for (const std::string& rule : it->second) ++result.rules_broken[rule];
      std::string reason;
      auto cls = classify(ref, runs[i], o.codes, &reason);
      if (!cls) continue;
      const std::string key = cls->key();
      if (auto it = by_key.find(key); it != by_key.end()) {
        ++result.findings[it->second].hits;
        continue;
      }
      const std::string id = class_case_id(*cls, o.profile);
      if (o.known.count(id) != 0) {
        ++result.known_hits;
        continue;
      }
      FuzzFinding f;
      f.cls = *cls;
      f.id = id;
      f.exec = exec + i;
      f.seed_index = seed_of[i];
      f.seed_origin = seeds[seed_of[i]].origin;
      f.chain = chains[i];
      f.chained = inputs[i];
      minimizer.execs = 0;
      minimizer.run(f, seeds[seed_of[i]].bytes);
      result.minimize_execs += minimizer.execs;
      by_key.emplace(key, result.findings.size());
      result.findings.push_back(std::move(f));
    }
    exec += n;
    result.execs = exec;
    if (o.progress) o.progress(exec, result.findings.size(), since(t0));
  }
  result.execs = exec;
  result.seconds = since(t0);
  return result;
}

}  // namespace voxrig::conform
