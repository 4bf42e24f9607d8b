// bench/codec_vfp_bench.cpp — VFP 1.3 + Voxel Rig v1: decode+validate and encode per section
// and for whole files, SHA-256 alone, and the memcpy baseline of the same bytes.
//
// Names: <SECTION>/<op>/<input>/<size>. Section decoders are timed without the container, so
// VOX0/decode has no SHA-256 in it (the header sourceHash is checked by decode_vfp, timed as
// VFP/decode); SKEL/VSKN/ANIM decoders get their RigContext (hashes, SKEL, VOX0) prepared
// outside the loop. bytes_per_second is always the payload (or file) size; items are voxels,
// joints, bindings or keys.
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/perf_inputs.h"
#include "voxrig/vfp.h"

namespace voxrig::bench {
namespace {

constexpr uint32_t kGridSizes[] = {32, 64, 128, 256};
constexpr GridKind kKinds[] = {GridKind::Random50, GridKind::Sphere, GridKind::Terrain};

size_t vox0_payload_bytes(uint32_t n, uint32_t palette) { return 12 + 4 * palette + n * n * n; }

// ---- VOX0 ----
void register_vox0() {
  for (uint32_t n : kGridSizes) {
    register_memcpy("vox0_" + std::to_string(n), [n] { return vox0_payload_bytes(n, 9); });
    for (GridKind kind : kKinds) {
      const std::string tag = std::string(grid_name(kind)) + "/" + std::to_string(n);
      auto bytes = lazy<std::vector<uint8_t>>();
      benchmark::RegisterBenchmark(("VOX0/decode/" + tag).c_str(), [=](benchmark::State& state) {
        if (!*bytes) *bytes = encode_vox0(grid(kind, n));
        const std::vector<uint8_t>& b = **bytes;
        const Limits limits;
        must(decode_vox0(b, 0, limits), "VOX0 decode");
        time_call(state, [&] { return decode_vox0(b, 0, limits); });
        rates(state, b.size(), uint64_t{n} * n * n);
      });
      benchmark::RegisterBenchmark(("VOX0/encode/" + tag).c_str(), [=](benchmark::State& state) {
        const Vox0& g = grid(kind, n);
        size_t size = 0;
        for (auto _ : measure(state)) {
          auto out = encode_vox0(g);
          size = out.size();
          benchmark::DoNotOptimize(out);
        }
        rates(state, size, uint64_t{n} * n * n);
      });
    }
  }
}

// ---- SKEL ----
void register_skel() {
  for (uint32_t joints : {16u, 64u, 256u, 1024u, 4096u}) {
    const std::string tag = std::to_string(joints);
    auto bytes = lazy<std::vector<uint8_t>>();
    auto skel = lazy<Skel>();
    const auto prepare = [=] {
      if (*bytes) return;
      *skel = forest_skel(joints, 0x5CE1u + joints);
      *bytes = must(encode_skel(**skel), "SKEL encode");
    };
    register_memcpy("skel_" + tag, [=] {
      prepare();
      return (*bytes)->size();
    });
    benchmark::RegisterBenchmark(("SKEL/decode/" + tag).c_str(), [=](benchmark::State& state) {
      prepare();
      const std::vector<uint8_t>& b = **bytes;
      const RigContext ctx;  // baseSourceHash of the generated skeleton is zero, as ctx's
      const Limits limits;
      must(decode_skel(b, 0, ctx, limits), "SKEL decode");
      time_call(state, [&] { return decode_skel(b, 0, ctx, limits); });
      rates(state, b.size(), joints);
    });
    benchmark::RegisterBenchmark(("SKEL/encode/" + tag).c_str(), [=](benchmark::State& state) {
      prepare();
      time_call(state, [&] { return encode_skel(**skel); });
      rates(state, (*bytes)->size(), joints);
    });
  }
}

// ---- VSKN and ANIM (need a bound rig: take them from a rig file) ----
struct RigInput {
  VfpFile file;
  std::vector<uint8_t> vox0_bytes, skel_bytes, vskn_bytes, anim_bytes;
  RigContext ctx;
};

RigInput make_rig(GridKind kind, uint32_t n, uint32_t joints) {
  RigInput in;
  in.file = rig_file(kind, n, joints);
  in.vox0_bytes = encode_vox0(*in.file.vox0());
  in.skel_bytes = must(encode_skel(*in.file.skel()), "SKEL encode");
  in.vskn_bytes = encode_vskn(*in.file.vskn());
  in.anim_bytes = must(encode_anim(*in.file.anim()), "ANIM encode");
  in.ctx.source_hash = sha256(in.vox0_bytes);
  in.ctx.skeleton_hash = sha256(in.skel_bytes);
  in.ctx.skel = in.file.skel();
  in.ctx.vox0 = in.file.vox0();
  return in;
}

void register_vskn() {
  const std::pair<GridKind, uint32_t> cases[] = {{GridKind::Random50, 32},
                                                 {GridKind::Random50, 64},
                                                 {GridKind::Random50, 128},
                                                 {GridKind::Sphere, 128},
                                                 {GridKind::Terrain, 128}};
  for (const auto& [kind, n] : cases) {
    const std::string tag = std::string(grid_name(kind)) + "_j64/" + std::to_string(n);
    auto rig = lazy<RigInput>();
    const auto prepare = [=, kind = kind, n = n] {
      if (!*rig) *rig = make_rig(kind, n, 64);
    };
    register_memcpy("vskn_" + std::string(grid_name(kind)) + "_j64_" + std::to_string(n), [=] {
      prepare();
      return (*rig)->vskn_bytes.size();
    });
    benchmark::RegisterBenchmark(("VSKN/decode/" + tag).c_str(), [=](benchmark::State& state) {
      prepare();
      const RigInput& in = **rig;
      const Limits limits;
      must(decode_vskn(in.vskn_bytes, 0, in.ctx, limits), "VSKN decode");
      time_call(state, [&] { return decode_vskn(in.vskn_bytes, 0, in.ctx, limits); });
      rates(state, in.vskn_bytes.size(), in.file.vskn()->bindings.size());
    });
    benchmark::RegisterBenchmark(("VSKN/encode/" + tag).c_str(), [=](benchmark::State& state) {
      prepare();
      const RigInput& in = **rig;
      time_call(state, [&] { return encode_vskn(*in.file.vskn()); });
      rates(state, in.vskn_bytes.size(), in.file.vskn()->bindings.size());
    });
  }
}

struct AnimInput {
  Skel skel;
  Anim anim;
  std::vector<uint8_t> bytes;
  RigContext ctx;
};

void register_anim() {
  for (uint32_t keys : {1u, 1000u, 10000u, 100000u}) {
    const std::string tag = std::to_string(keys);
    auto input = lazy<AnimInput>();
    const auto prepare = [=] {
      if (*input) return;
      AnimInput& in = input->emplace();
      in.anim = anim_with_keys(keys, in.skel);
      in.bytes = must(encode_anim(in.anim), "ANIM encode");
      in.ctx.skel = &in.skel;  // hashes are zero in both the payload and the context
    };
    register_memcpy("anim_" + tag, [=] {
      prepare();
      return (*input)->bytes.size();
    });
    benchmark::RegisterBenchmark(("ANIM/decode/" + tag).c_str(), [=](benchmark::State& state) {
      prepare();
      const AnimInput& in = **input;
      const Limits limits;
      must(decode_anim(in.bytes, 0, in.ctx, limits), "ANIM decode");
      time_call(state, [&] { return decode_anim(in.bytes, 0, in.ctx, limits); });
      rates(state, in.bytes.size(), keys);
    });
    benchmark::RegisterBenchmark(("ANIM/encode/" + tag).c_str(), [=](benchmark::State& state) {
      prepare();
      const AnimInput& in = **input;
      time_call(state, [&] { return encode_anim(in.anim); });
      rates(state, in.bytes.size(), keys);
    });
  }
}

// ---- whole files: framing + SHA-256 of VOX0 and SKEL + every section ----
void register_vfp() {
  const std::pair<GridKind, uint32_t> cases[] = {{GridKind::Sphere, 32},
                                                 {GridKind::Sphere, 64},
                                                 {GridKind::Sphere, 128},
                                                 {GridKind::Sphere, 256},
                                                 {GridKind::Random50, 64}};
  for (const auto& [kind, n] : cases) {
    const std::string tag = std::string(grid_name(kind)) + "_j64/" + std::to_string(n);
    auto bytes = lazy<std::vector<uint8_t>>();
    auto file = lazy<VfpFile>();
    const auto prepare = [=, kind = kind, n = n] {
      if (*bytes) return;
      *file = rig_file(kind, n, 64);
      *bytes = must(encode_vfp(**file), "VFP encode");
    };
    register_memcpy("vfp_" + std::string(grid_name(kind)) + "_j64_" + std::to_string(n), [=] {
      prepare();
      return (*bytes)->size();
    });
    for (Profile profile : {Profile::VfpRig, Profile::VfpStatic}) {
      const std::string op = profile == Profile::VfpRig ? "decode_rig/" : "decode_static/";
      benchmark::RegisterBenchmark(("VFP/" + op + tag).c_str(), [=](benchmark::State& state) {
        prepare();
        DecodeOptions options;
        options.profile = profile;
        must(decode_vfp(**bytes, options), "VFP decode");
        time_call(state, [&] { return decode_vfp(**bytes, options); });
        rates(state, (*bytes)->size(), (*bytes)->size());
      });
    }
    benchmark::RegisterBenchmark(("VFP/encode/" + tag).c_str(), [=](benchmark::State& state) {
      prepare();
      time_call(state, [&] { return encode_vfp(**file); });
      rates(state, (*bytes)->size(), (*bytes)->size());
    });
  }
}

// ---- SHA-256 alone (OpenSSL; its code path depends on the CPU: read next to memcpy) ----
void register_sha256() {
  for (size_t bytes : {size_t{64}, size_t{4096}, size_t{1} << 20, size_t{16} << 20}) {
    benchmark::RegisterBenchmark(("SHA256/" + std::to_string(bytes)).c_str(),
                                 [bytes](benchmark::State& state) {
                                   std::vector<uint8_t> data(bytes, 0xA5);
                                   for (auto _ : measure(state)) {
                                     auto d = sha256(data);
                                     benchmark::DoNotOptimize(d);
                                   }
                                   rates(state, bytes, 1);
                                 });
  }
}

const bool registered = [] {
  register_vox0();
  register_skel();
  register_vskn();
  register_anim();
  register_vfp();
  register_sha256();
  return true;
}();

}  // namespace
}  // namespace voxrig::bench
