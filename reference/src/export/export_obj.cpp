// Wavefront OBJ export of quads, static or posed (see voxrig/export.h for the conventions).
//
// Text layout: a comment line, then per quad four `v` lines and one `f` line (1-based indices),
// with a `g NAME` line whenever the joint changes (the SKEL joint's name, else joint_<id>).
// Written through a 64 KiB buffer (voxrig/text_stream.h); the capped writers measure it first.
#include <charconv>
#include <string>

#include "voxrig/export.h"

namespace voxrig {
namespace {

void append_float(std::string& out, float v) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

void append_uint(std::string& out, uint64_t v) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

// The four corners of q, counter-clockwise seen from the side the face looks at.
void quad_corners(const Quad& q, Vec3 out[4]) {
  const int a = q.axis, u = (a + 1) % 3, v = (a + 2) % 3;
  float c[4][3];
  const float base[3] = {float(q.x), float(q.y), float(q.z)};
  // (u, v) offsets of a CCW loop seen from +axis (e_u x e_v = e_axis).
  const float du[4] = {0, float(q.w), float(q.w), 0};
  const float dv[4] = {0, 0, float(q.h), float(q.h)};
  for (int k = 0; k < 4; ++k) {
    c[k][a] = base[a];
    c[k][u] = base[u] + du[k];
    c[k][v] = base[v] + dv[k];
  }
  for (int k = 0; k < 4; ++k) {
    const int src = q.positive ? k : (4 - k) % 4;  // reversed loop for faces looking at -axis
    out[k] = Vec3{c[src][0], c[src][1], c[src][2]};
  }
}

// The OBJ group name of joint `id`: its SKEL name with whitespace / controls as '_' (a group
// name is one token), or joint_<id> without a skeleton, a joint of that id or a name.
std::string group_name(uint16_t id, const Skel* skel) {
  if (skel)
    for (const SkelJoint& j : skel->joints) {
      if (j.id != id || j.name.empty()) continue;
      std::string n = j.name;
      for (char& c : n)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) c = '_';
      return n;
    }
  return "joint_" + std::to_string(id);
}

float srgb_unit(uint8_t c) { return static_cast<float>(c) / 255.0f; }

// The shared writer: transform (per quad) maps grid points to output points. False when it
// stopped because the text went past out's limit.
template <class Transform>
bool obj_text(std::span<const Quad> quads, std::span<const Rgba> palette, const Skel* skel,
              Transform&& transform, TextStream& text) {
  std::string& out = text.buf();
  out += "# voxrig OBJ: ";
  append_uint(out, quads.size());
  out += " quads, VOX0 grid units, z up\n";
  bool first = true;
  uint16_t joint = 0;
  uint64_t vertex = 1;
  for (const Quad& q : quads) {
    if (!text.step()) return false;
    if (first || q.joint != joint) {
      out += "g " + group_name(q.joint, skel) + "\n";
      joint = q.joint;
      first = false;
    }
    Vec3 c[4];
    quad_corners(q, c);
    const bool coloured = q.material < palette.size();
    for (Vec3& p : c) {
      p = transform(q, p);
      out += "v ";
      append_float(out, p.x);
      out += ' ';
      append_float(out, p.y);
      out += ' ';
      append_float(out, p.z);
      if (coloured) {
        const Rgba& col = palette[q.material];
        out += ' ';
        append_float(out, srgb_unit(col.r));
        out += ' ';
        append_float(out, srgb_unit(col.g));
        out += ' ';
        append_float(out, srgb_unit(col.b));
      }
      out += '\n';
    }
    out += "f ";
    for (int k = 0; k < 4; ++k) {
      append_uint(out, vertex + k);
      out += k < 3 ? ' ' : '\n';
    }
    vertex += 4;
  }
  return text.step();
}

// Streams the text when it fits in max_bytes (measured first): else limit.output, nothing
// written.
template <class Transform>
Status stream_obj(std::span<const Quad> quads, std::span<const Rgba> palette, const Skel* skel,
                  Transform&& transform, uint64_t max_bytes, const OutputSink& sink) {
  if (stream_within(max_bytes, sink, [&](TextStream& text) {
        return obj_text(quads, palette, skel, transform, text);
      }))
    return ok_status();
  return model_error(ErrorCode::LimitOutput, "",
                     "the OBJ text of " + std::to_string(quads.size()) +
                         " quads is over the output limit of " + std::to_string(max_bytes) +
                         " bytes");
}

const auto kIdentity = [](const Quad&, const Vec3& p) { return p; };

}  // namespace

std::string export_obj(std::span<const Quad> quads, std::span<const Rgba> palette,
                       const Skel* skel) {
  std::string out;
  const OutputSink append = [&](std::string_view piece) { out += piece; };
  TextStream text(UINT64_MAX, &append);
  obj_text(quads, palette, skel, kIdentity, text);
  text.flush();
  return out;
}

Status write_obj(std::span<const Quad> quads, std::span<const Rgba> palette, const Skel* skel,
                 uint64_t max_bytes, const OutputSink& sink) {
  return guard_out_of_memory(
      [&] { return stream_obj(quads, palette, skel, kIdentity, max_bytes, sink); });
}

static Status write_posed_obj_unguarded(const Vox0& vox0, std::span<const uint16_t> joints,
                                        const RigRuntime& runtime, const PoseRequest& pose,
                                        const Skel* skel, uint64_t max_bytes,
                                        const OutputSink& sink);

// The public entry points: allocation failure becomes internal.out_of_memory (result.h).
Result<std::string> export_posed_obj(const Vox0& vox0, std::span<const uint16_t> joints,
                                     const RigRuntime& runtime, const PoseRequest& pose,
                                     const Skel* skel) {
  return guard_out_of_memory([&]() -> Result<std::string> {
    std::string out;
    VOXRIG_TRY(write_posed_obj_unguarded(vox0, joints, runtime, pose, skel, UINT64_MAX,
                                         [&](std::string_view piece) { out += piece; }));
    return out;
  });
}

Status write_posed_obj(const Vox0& vox0, std::span<const uint16_t> joints,
                       const RigRuntime& runtime, const PoseRequest& pose, const Skel* skel,
                       uint64_t max_bytes, const OutputSink& sink) {
  return guard_out_of_memory([&] {
    return write_posed_obj_unguarded(vox0, joints, runtime, pose, skel, max_bytes, sink);
  });
}

static Status write_posed_obj_unguarded(const Vox0& vox0, std::span<const uint16_t> joints,
                                        const RigRuntime& runtime, const PoseRequest& pose,
                                        const Skel* skel, uint64_t max_bytes,
                                        const OutputSink& sink) {
  MeshScratch scratch;
  if (max_bytes != UINT64_MAX) scratch.set_quad_limit(max_bytes / kObjMinQuadBytes);
  std::vector<Quad> quads;
  VOXRIG_TRY(mesh_bone_aware(vox0, joints, quads, scratch));
  const size_t n = runtime.joint_count();
  std::vector<Trs> locals(n);
  std::vector<Mat4> models(n), skin(n);
  VOXRIG_TRY(
      (SamplingJob{&runtime, pose.clip, pose.time_ms, pose.policy, pose.mode, nullptr, locals}
           .run()));
  VOXRIG_TRY((LocalToModelJob{&runtime, locals, models}.run()));
  VOXRIG_TRY((SkinningJob{&runtime, models, skin}.run()));
  for (const Quad& q : quads) {
    if (runtime.joint_index(q.joint) < 0) {
      return model_error(ErrorCode::VsknJointMissing, "VSKN",
                         "joint map names joint " + std::to_string(q.joint) + ", not in SKEL");
    }
  }
  return stream_obj(
      quads, vox0.palette, skel,
      [&](const Quad& q, const Vec3& p) {
        return transform_point(skin[static_cast<size_t>(runtime.joint_index(q.joint))], p);
      },
      max_bytes, sink);
}

}  // namespace voxrig
