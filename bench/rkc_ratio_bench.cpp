// bench/rkc_ratio_bench.cpp — issue 15's RKCH decode targets as ratios measured in one process:
// the library's decode_rkc against the frozen pre-issue copy in bench/baseline/rkc_baseline.cpp,
// on the same bytes, under rkc-strict.
//
// Names: RKCH/base_decode/<tag> (the copy alone; baseline=1, compare with RKCH/decode/<tag>)
// and RKCH/ratio/<tag>: every iteration decodes a batch with the library and a batch with the
// copy, in an order that alternates per iteration, timed with the thread's CPU clock; counter
//   vs_base = the copy's CPU time / the library's CPU time   (the target: >= 4x at 259 B,
//                                                             >= 2x at ~10 KB)
// summed over all iterations (a load spike hits both sides). The batches and the counter are
// harness.h alternate_batch_ratio's, which says how large a batch is and why.
// The ratio benchmarks are marked in-run baselines (their time is both sides together), so
// compare.sh never gates them; RKCH/decode/<tag> gates the library alone. Before timing, both
// decoders must return equal characters (a ratio compares speed only).
// Tags: tiny/259 (tiny_character), seed/b<B>f<F> (seed_character: the seed's synthetic shape,
// ~3 / 10 / 35 KB), skel/<bones> and vclp/<bones> (character(): 16^3 sphere-shell meshes, RVC
// clips), as in codec_rkc_bench.cpp.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "baseline/rkc_baseline.h"
#include "harness.h"
#include "inputs.h"
#include "voxrig/rkc.h"

namespace voxrig::bench {
namespace {

DecodeOptions strict() {
  DecodeOptions o;
  o.profile = Profile::RkcStrict;
  return o;
}

void register_case(const std::string& tag, std::function<Character()> make) {
  auto bytes = lazy<std::vector<uint8_t>>();
  const auto prepare = [=] {
    if (*bytes) return;
    bytes->emplace(must(encode_rkc(make()), "RKCH encode " + tag));
    require(tag != "tiny/259" || (*bytes)->size() == 259, "tiny_character is not 259 bytes");
    require(must(bench_baseline::decode_rkc_baseline(**bytes, strict()), "RKCH baseline " + tag) ==
                must(decode_rkc(**bytes, strict()), "RKCH decode " + tag),
            "RKCH baseline and library decode differ: " + tag);
  };
  benchmark::RegisterBenchmark(("RKCH/base_decode/" + tag).c_str(), [=](benchmark::State& state) {
    prepare();
    const std::vector<uint8_t>& b = **bytes;
    const DecodeOptions o = strict();
    for (auto _ : measure(state, Alloc::Any, Role::Baseline)) {
      auto r = bench_baseline::decode_rkc_baseline(b, o);
      benchmark::DoNotOptimize(r);
    }
    rates(state, b.size(), 0);
  });
  benchmark::RegisterBenchmark(("RKCH/ratio/" + tag).c_str(), [=](benchmark::State& state) {
    prepare();
    const std::vector<uint8_t>& b = **bytes;
    const DecodeOptions o = strict();
    state.counters["file_bytes"] = static_cast<double>(b.size());
    alternate_batch_ratio(
        state, b.size(), 0, [&] { return decode_rkc(b, o); },
        [&] { return bench_baseline::decode_rkc_baseline(b, o); });
  });
}

const bool registered = [] {
  register_case("tiny/259", [] { return tiny_character(); });
  for (const auto& [bones, frames] : {std::pair{4u, 12u}, {16u, 12u}, {48u, 16u}})
    register_case("seed/b" + std::to_string(bones) + "f" + std::to_string(frames),
                  [b = bones, f = frames] { return seed_character(b, f); });
  for (uint32_t bones : {1u, 10u})
    for (bool clips : {false, true})
      register_case(std::string(clips ? "vclp/" : "skel/") + std::to_string(bones),
                    [=] { return character(bones, clips); });
  return true;
}();

}  // namespace
}  // namespace voxrig::bench
