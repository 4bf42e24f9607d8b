// bench/codec_rkc_bench.cpp — the RKCH family: RKCH (with embedded KV6 meshes, and with or
// without embedded RVC voxel clips), KV6, RVC and KFA, decode+validate and encode, with the
// memcpy baseline of the same bytes.
//
// Names: <FORMAT>/<op>/<input>. RKCH inputs come from perf_inputs.h character(): `skel` = META +
// one KV6 per bone + BONS + a 30-frame skeletal clip (no VCLP); `vclp` adds one deflated RVC clip
// per 10 bones. Decoding is under rkc-strict (KV6 run tables and RVC frames are validated).
// bytes_per_second is the file size; items are bones (RKCH), stored voxels (KV6), frames (RVC)
// or frame cells (KFA).
#include <string>
#include <utility>
#include <vector>

#include "harness.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/testing/perf_inputs.h"

namespace voxrig::bench {
namespace {

// seed_character(bones, frames) shapes: ~2.9 KB, ~10 KB, ~35 KB encoded.
constexpr std::pair<uint32_t, uint32_t> kSeedShapes[] = {{4, 12}, {16, 12}, {48, 16}};
std::string seed_tag(uint32_t bones, uint32_t frames) {
  return "seed/b" + std::to_string(bones) + "f" + std::to_string(frames);
}

DecodeOptions strict() {
  DecodeOptions o;
  o.profile = Profile::RkcStrict;
  return o;
}

// Registers FORMAT/decode/<tag>, FORMAT/encode/<tag> and memcpy/<format>_<tag> for one input.
// make() returns the model; decode(bytes) and encode(model) are the library calls; count(model)
// the items one iteration processes.
template <class Model, class Make, class Count, class Decode, class Encode>
void register_codec(const std::string& format, const std::string& tag, Make make, Count count,
                    Decode decode, Encode encode) {
  struct Input {
    Model model;
    std::vector<uint8_t> bytes;
    uint64_t items = 0;
  };
  auto input = lazy<Input>();
  const auto prepare = [=] {
    if (*input) return;
    Input& in = input->emplace();
    in.model = make();
    in.bytes = must(encode(in.model), format + " encode");
    in.items = count(in.model);
  };
  std::string lower = format;
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  register_memcpy(lower + "_" + tag, [=] {
    prepare();
    return (*input)->bytes.size();
  });
  benchmark::RegisterBenchmark((format + "/decode/" + tag).c_str(), [=](benchmark::State& state) {
    prepare();
    const std::vector<uint8_t>& b = (*input)->bytes;
    must(decode(b), format + " decode");
    time_call(state, [&] { return decode(b); });
    rates(state, b.size(), (*input)->items);
  });
  benchmark::RegisterBenchmark((format + "/encode/" + tag).c_str(), [=](benchmark::State& state) {
    prepare();
    time_call(state, [&] { return encode((*input)->model); });
    rates(state, (*input)->bytes.size(), (*input)->items);
  });
}

void register_rkch() {
  // Per-file cost: the 259-byte character and the seed's synthetic shape at ~3, ~10 and ~35 KB
  // (the file classes of the RKCH decode target, docs/performance.md).
  register_codec<Character>(
      "RKCH", "tiny/259", [] { return tiny_character(); },
      [](const Character& c) { return c.bones.size(); },
      [](const std::vector<uint8_t>& b) { return decode_rkc(b, strict()); },
      [](const Character& c) { return encode_rkc(c); });
  for (const auto& [bones, frames] : kSeedShapes) {
    register_codec<Character>(
        "RKCH", seed_tag(bones, frames), [b = bones, f = frames] { return seed_character(b, f); },
        [](const Character& c) { return c.bones.size(); },
        [](const std::vector<uint8_t>& b) { return decode_rkc(b, strict()); },
        [](const Character& c) { return encode_rkc(c); });
  }
  for (uint32_t bones : {1u, 10u, 50u, 200u}) {
    for (bool clips : {false, true}) {
      register_codec<Character>(
          "RKCH", std::string(clips ? "vclp/" : "skel/") + std::to_string(bones),
          [=] { return character(bones, clips); },
          [](const Character& c) { return c.bones.size(); },
          [](const std::vector<uint8_t>& b) { return decode_rkc(b, strict()); },
          [](const Character& c) { return encode_rkc(c); });
    }
  }
}

void register_kv6() {
  const std::pair<GridKind, uint32_t> cases[] = {{GridKind::Sphere, 16},
                                                 {GridKind::Sphere, 64},
                                                 {GridKind::Terrain, 64},
                                                 {GridKind::Sphere, 128}};
  for (const auto& [kind, n] : cases) {
    const std::string tag = std::string(grid_name(kind)) + "/" + std::to_string(n);
    register_codec<Kv6>(
        "KV6", tag, [kind = kind, n = n] { return kv6_from_grid(grid(kind, n)); },
        [](const Kv6& k) { return k.voxels.size(); },
        [](const std::vector<uint8_t>& b) { return decode_kv6(b, 0, strict()); },
        [](const Kv6& k) { return encode_kv6(k); });
  }
}

void register_rvc() {
  const std::pair<uint32_t, uint32_t> cases[] = {{16, 8}, {32, 30}, {64, 30}};
  for (const auto& [d, frames] : cases) {
    const std::string tag = "ball" + std::to_string(d) + "x" + std::to_string(frames);
    register_codec<RvcClip>(
        "RVC", tag, [d = d, frames = frames] { return moving_ball_clip(d, frames); },
        [](const RvcClip& c) { return c.frames.size(); },
        [](const std::vector<uint8_t>& b) { return decode_rvc(b, 0, strict()); },
        [](const RvcClip& c) { return encode_rvc(c); });
    // Full frame reconstruction (the seed's VoxelClip::decode) on an already parsed clip.
    auto clip = lazy<RvcClip>();
    benchmark::RegisterBenchmark(
        ("RVC/decode_frames/" + tag).c_str(), [=, d = d, frames = frames](benchmark::State& state) {
          if (!*clip) *clip = moving_ball_clip(d, frames);
          const Limits limits;
          must(decode_rvc_frames(**clip, limits), "RVC frames");
          time_call(state, [&] { return decode_rvc_frames(**clip, limits); });
          rates(state, 0, frames);
        });
  }
}

void register_kfa() {
  for (uint32_t bones : {10u, 200u}) {
    register_codec<Kfa>(
        "KFA", std::to_string(bones),
        [=] {
          const std::vector<uint8_t> name = {'b', 'e', 'n', 'c', 'h'};
          return must(character_to_kfa(character(bones, false), 0, name), "character_to_kfa");
        },
        [](const Kfa& k) { return k.frames.size(); },
        [](const std::vector<uint8_t>& b) { return decode_kfa(b, strict()); },
        [](const Kfa& k) { return encode_kfa(k); });
  }
}

const bool registered = [] {
  register_rkch();
  register_kv6();
  register_rvc();
  register_kfa();
  return true;
}();

}  // namespace
}  // namespace voxrig::bench
