// The perf corpus of bench-reader (voxrig/testing/perf_corpus.h).
#include "voxrig/testing/perf_corpus.h"

#include "voxrig/rkc.h"
#include "voxrig/testing/perf_inputs.h"
#include "voxrig/vfp.h"

namespace voxrig::perf {
namespace {

std::vector<uint8_t> vfp_bytes(const VfpFile& f) { return must(encode_vfp(f), "VFP encode"); }

VfpFile static_only(VfpFile f) {
  std::erase_if(f.sections, [](const Section& s) { return !std::holds_alternative<Vox0>(s.body); });
  return f;
}

}  // namespace

std::vector<conform::BenchCase> reader_corpus(bool quick) {
  std::vector<conform::BenchCase> out;
  const uint32_t big = quick ? 32 : 128, rig = quick ? 16 : 64;
  const auto grid_case = [&](GridKind kind, uint32_t n) {
    out.push_back({"vfp_static/" + std::string(grid_name(kind)) + "/" + std::to_string(n),
                   Profile::VfpStatic, vfp_bytes(static_only(rig_file(kind, n, 1)))});
  };
  grid_case(GridKind::Sphere, big);
  grid_case(GridKind::Random50, big);
  for (GridKind kind : {GridKind::Random50, GridKind::Terrain})
    out.push_back({"vfp_rig/" + std::string(grid_name(kind)) + "_j64/" + std::to_string(rig),
                   Profile::VfpRig, vfp_bytes(rig_file(kind, rig, 64))});
  for (uint32_t bones : quick ? std::vector<uint32_t>{1, 10} : std::vector<uint32_t>{1, 10, 50})
    out.push_back({"rkch/vclp/" + std::to_string(bones), Profile::RkcStrict,
                   must(encode_rkc(character(bones, true)), "RKCH encode")});
  return out;
}

}  // namespace voxrig::perf
