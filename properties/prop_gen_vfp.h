// Generators of VFP 1.3 + Voxel Rig v1 models, valid by construction: VOX0 grids (dense and
// sparse), skeletons (random forests whose parents may come after their children), bindings,
// clips and keys (unit quaternions, strictly increasing times), and whole files with optional
// caches and unknown optional sections at random positions, every hash bound with rebind().
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <string>

#include "voxrig/vfp.h"
#include "voxrig/vfp_model.h"

namespace voxrig::props {

/// What the numbers in a rig may be.
enum class Numbers {
  Codec,  ///< anything the decoder accepts: any finite float, zero/negative/denormal scales
  Eval,   ///< D20's domain: |t| <= 1e3, |scale| in [0.25, 4], so bind matrices are invertible
  Grid,   ///< voxel-sized rigs: |t| <= 16, |scale| in [0.5, 2] (absolute position tolerances hold)
};

/// Shape of a generated VOX0 grid.
enum class GridShape { Any, Dense, Sparse };

/// A VOX0 grid; dims grow with the size (1..8 per axis at full size), palette 1..256.
/// `min_palette` >= 2 guarantees that non-empty voxels can exist.
rc::Gen<Vox0> gen_vox0(GridShape shape = GridShape::Any, int min_palette = 1);

/// A valid SKEL (base hash left zero: rebind() sets it). 1..max_joints joints.
rc::Gen<Skel> gen_skel(Numbers numbers = Numbers::Codec, int max_joints = 10);

/// Valid VSKN bindings of `vox0` to `skel` (hashes left zero).
rc::Gen<Vskn> gen_vskn(const Vox0& vox0, const Skel& skel);

/// A valid ANIM for `skel`: min_clips..max_clips clips (hashes left zero).
rc::Gen<Anim> gen_anim(const Skel& skel, Numbers numbers = Numbers::Codec, int max_clips = 3,
                       int min_clips = 0);

/// A skeleton and its clips: what the evaluation properties pose.
struct GenRig {
  Skel skel;
  Anim anim;
};

/// Inside a property: a skeleton of up to 8 joints with 1..max_clips clips, in D20's domain
/// (Numbers::Eval). With `extreme_bind_scales`, half of the rigs get every bind scale axis at
/// 0.25 or 4 (the edges of Numbers::Eval) while keeping the generated rotations and
/// translations: ill-conditioned binds for the precision properties.
GenRig gen_eval_rig(int max_clips, bool extreme_bind_scales = false);

/// Options for whole files.
struct VfpGenOptions {
  enum class Rig { Maybe, Always, Never } rig = Rig::Maybe;
  bool extras = true;       ///< caches and unknown optional sections
  bool shuffle = true;      ///< any section order (otherwise the compiler's order)
  bool any_minor = true;    ///< versionMinor 0..255 (otherwise 3)
  bool any_codec = true;    ///< optional extras may carry codec != 0 (not compile input)
  bool compilable = false;  ///< only what compile_vfp_json can produce (see vfp_json_props)
  Numbers numbers = Numbers::Codec;
  GridShape grid = GridShape::Any;
};

/// A whole valid VfpFile (every rig section decoded, every hash bound).
rc::Gen<VfpFile> gen_vfp_file(VfpGenOptions options = {});

/// True when the tag is one of the five cache tags.
bool is_cache_tag(const SectionTag& tag);
/// True when the tag is VOX0, SKEL, VSKN, ANIM or a cache.
bool is_known_tag(const SectionTag& tag);

/// A short readable description (used in counterexamples).
std::string describe(const Vox0& v);
std::string describe(const Section& s);
std::string describe(const Skel& s);
std::string describe(const Anim& a);
std::string describe(const VfpFile& f);

}  // namespace voxrig::props

namespace voxrig {
// RapidCheck prints generated values with showValue, found by argument-dependent lookup in the
// namespace of the value's type.
inline void showValue(const Vox0& v, std::ostream& os) { os << props::describe(v); }
inline void showValue(const VfpFile& f, std::ostream& os) { os << props::describe(f); }
inline void showValue(const Section& s, std::ostream& os) { os << "\n  " << props::describe(s); }
inline void showValue(const Skel& s, std::ostream& os) { os << props::describe(s); }
inline void showValue(const Anim& a, std::ostream& os) { os << props::describe(a); }
}  // namespace voxrig
