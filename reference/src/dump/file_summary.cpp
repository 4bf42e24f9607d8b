// The counts and verdicts of voxrig/file_summary.h: one decode per format family, nothing kept.
#include "voxrig/file_summary.h"

#include <new>

#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/vfp.h"

namespace voxrig {
namespace {

// A decode or a verdict that ran out of memory is the caller's failure, never a file shown
// without its counts.
template <class R>
bool decoded(const R& r) {
  if (!r.ok() && r.error().code == ErrorCode::InternalOutOfMemory) throw std::bad_alloc();
  return r.ok();
}

using Counts = std::vector<std::pair<std::string, uint64_t>>;

void count_vfp(const VfpFile& f, Counts& c) {
  c.emplace_back("sections", f.sections.size());
  if (const Vox0* v = f.vox0()) {
    c.emplace_back("size_x", v->size_x);
    c.emplace_back("size_y", v->size_y);
    c.emplace_back("size_z", v->size_z);
    c.emplace_back("palette", v->palette.size());
    uint64_t filled = 0;
    for (uint8_t i : v->voxels) filled += i != 0;
    c.emplace_back("voxels", filled);
  }
  if (f.skel()) c.emplace_back("joints", f.skel()->joints.size());
  if (f.vskn()) c.emplace_back("bindings", f.vskn()->bindings.size());
  if (f.anim()) c.emplace_back("clips", f.anim()->clips.size());
}

Counts counts_under(std::span<const uint8_t> bytes, Profile profile) {
  Counts c;
  const DecodeOptions o{profile, Limits{}};
  switch (detect_format(bytes)) {
    case Format::Vfp:
      if (auto f = decode_vfp(bytes, o); decoded(f)) count_vfp(*f, c);
      break;
    case Format::Rkc:
      if (auto r = decode_rkc(bytes, o); decoded(r))
        c = {{"meshes", r->meshes.size()},
             {"bones", r->bones.size()},
             {"clips", r->clips.size()},
             {"voxel_clips", r->voxel_clips.size()},
             {"extra_chunks", r->extra_chunks.size()}};
      break;
    case Format::Kv6:
      if (auto k = decode_kv6(bytes, 0, o); decoded(k))
        c = {{"size_x", k->xsiz},
             {"size_y", k->ysiz},
             {"size_z", k->zsiz},
             {"voxels", k->voxels.size()}};
      break;
    case Format::Rvc:
      if (auto r = decode_rvc(bytes, 0, o); decoded(r))
        c = {{"chunks", r->chunks.size()},
             {"size_x", r->meta.dims[0]},
             {"size_y", r->meta.dims[1]},
             {"size_z", r->meta.dims[2]},
             {"frames", r->meta.frame_count}};
      break;
    case Format::Kfa:
      if (auto k = decode_kfa(bytes, o); decoded(k))
        c = {{"hinges", k->hinges.size()}, {"frames", k->frame_count}, {"seq", k->seq.size()}};
      break;
    case Format::Unknown:
      break;
  }
  return c;
}

}  // namespace

Profile default_profile(std::span<const uint8_t> bytes) {
  const Format f = detect_format(bytes);
  return f == Format::Vfp || f == Format::Unknown ? Profile::VfpRig : Profile::RkcStrict;
}

ContentCounts count_contents(std::span<const uint8_t> bytes) {
  ContentCounts c{default_profile(bytes), {}};
  c.counts = counts_under(bytes, c.profile);
  if (!c.counts.empty()) return c;
  c.profile = c.profile == Profile::VfpRig ? Profile::VfpStatic : Profile::RkcCompat;
  c.counts = counts_under(bytes, c.profile);
  return c;
}

std::vector<ProfileVerdict> verdicts_by_profile(std::span<const uint8_t> bytes) {
  const Format f = detect_format(bytes);
  std::vector<Profile> profiles;
  if (f == Format::Vfp || f == Format::Unknown) profiles = {Profile::VfpStatic, Profile::VfpRig};
  if (f != Format::Vfp) profiles.insert(profiles.end(), {Profile::RkcStrict, Profile::RkcCompat});
  std::vector<ProfileVerdict> v;
  for (Profile p : profiles) {
    v.push_back({p, validate_any(bytes, p, Limits{})});
    if (v.back().report.error && v.back().report.error->code == ErrorCode::InternalOutOfMemory)
      throw std::bad_alloc();
  }
  return v;
}

}  // namespace voxrig
