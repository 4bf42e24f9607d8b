// The capability judges (docs/spec/protocols.md): pose matrices with
// D19's tolerance, meshes by properties, compile with its JSON path. Untrusted output is parsed
// with nlohmann::json under the same bounds as dumps (kMaxJsonDepth); a quad box is checked
// against the grid before any voxel of it is visited, so a hostile box costs nothing.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>
#include <unordered_map>

#include "verdict_internal.h"
#include "voxrig/any_format.h"
#include "voxrig/conform/conform.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/vfp.h"

namespace voxrig::conform {
namespace {

using json = nlohmann::json;

std::optional<json> parse_output(const std::string& text, std::string& problem) {
  size_t depth = 0, max_depth = 0;
  auto cb = [&](int, json::parse_event_t e, json&) {
    if (e == json::parse_event_t::object_start || e == json::parse_event_t::array_start)
      max_depth = std::max(max_depth, ++depth);
    if (e == json::parse_event_t::object_end || e == json::parse_event_t::array_end) --depth;
    return max_depth <= kMaxJsonDepth;
  };
  try {
    json j = json::parse(text, cb);
    if (max_depth > kMaxJsonDepth) {
      problem = "nests too deep";
      return std::nullopt;
    }
    return j;
  } catch (const json::parse_error& e) {  // the byte, not the library's exception text
    problem = text.find_first_not_of(" \t\r\n") == std::string::npos
                  ? "no JSON (empty output)"
                  : "invalid JSON at byte " + std::to_string(e.byte);
    return std::nullopt;
  } catch (const std::exception&) {
    problem = "invalid JSON";
    return std::nullopt;
  }
}

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

constexpr const char* kDirNames[6] = {"-x", "+x", "-y", "+y", "-z", "+z"};

uint64_t face_key(uint64_t x, uint64_t y, uint64_t z, uint64_t dir) {
  return ((z * 65536 + y) * 65536 + x) * 8 + dir;
}

std::string face_text(const MeshFaces::Face& f) {
  return std::string("the ") + kDirNames[f.dir] + " face of voxel (" + std::to_string(f.x) + ", " +
         std::to_string(f.y) + ", " + std::to_string(f.z) + ") (joint " + std::to_string(f.joint) +
         ", color " + std::to_string(f.color) + ")";
}

}  // namespace

Judgement judge_pose(const PoseExpectation& expect, const RunOutcome& run, CodeMode codes) {
  if (auto j = detail::abnormal_run(run)) return *j;
  if (run.exit_code == 1)
    return detail::judge_rejection_run(run, !expect.accept, expect.error, codes, "a pose");
  std::string problem;
  auto doc = parse_output(run.out, problem);
  if (!doc) return {Verdict::Crash, "exit 0 with invalid JSON on stdout: " + problem};
  if (!expect.accept) return {Verdict::Fail, "posed, expected reject with " + expect.error};
  const json* model = doc->is_object() && doc->contains("model") ? &(*doc)["model"] : nullptr;
  if (!model || !model->is_array())
    return {Verdict::Fail, "the output has no \"model\" array of matrices"};
  if (model->size() != expect.model.size())
    return {Verdict::Fail, std::to_string(model->size()) + " matrices, expected " +
                               std::to_string(expect.model.size()) + " (one per joint / bone)"};
  for (size_t j = 0; j < expect.model.size(); ++j) {
    const json& m = (*model)[j];
    if (!m.is_array() || m.size() != 16)
      return {Verdict::Fail, "model[" + std::to_string(j) + "] is not an array of 16 numbers"};
    for (size_t e = 0; e < 16; ++e) {
      const double want = expect.model[j][e];
      const std::string where = "joint " + std::to_string(j) + " element " + std::to_string(e) +
                                " (row " + std::to_string(e % 4) + ", column " +
                                std::to_string(e / 4) + ")";
      if (!m[e].is_number())
        return {Verdict::Fail, where + ": expected " + num(want) + ", got " + m[e].dump()};
      const double got = m[e].get<double>();
      if (!(std::fabs(got - want) <= kPoseAbsTolerance + kPoseRelTolerance * std::fabs(want)))
        return {Verdict::Fail, where + ": expected " + num(want) + ", got " + num(got) +
                                   " (D19 tolerance 1e-6 + 1e-5*|want|)"};
    }
  }
  return {Verdict::Pass, ""};
}

std::optional<MeshFaces> mesh_faces(std::span<const uint8_t> file, std::string_view profile_name,
                                    std::string* problem) {
  auto profile = profile_from_string(profile_name);
  if (!profile) {
    if (problem) *problem = "unknown profile " + std::string(profile_name);
    return std::nullopt;
  }
  MeshFaces out;
  const DecodeOptions options{*profile, Limits{}};
  if (detect_format(file) == Format::Kv6) {
    auto kv6 = decode_kv6(file, 0, options);
    std::vector<Quad> naive;
    if (!kv6.ok() || !mesh_kv6_naive(*kv6, naive).ok()) {
      if (problem) *problem = kv6.ok() ? "KV6 run tables" : kv6.error().to_text();
      return std::nullopt;
    }
    out.size[0] = kv6->xsiz, out.size[1] = kv6->ysiz, out.size[2] = kv6->zsiz;
    // One naive quad per vis bit: its voxel is one step back from a +axis face plane.
    for (const Quad& q : naive) {
      uint32_t c[3] = {q.x, q.y, q.z};
      if (q.positive) c[q.axis] -= 1;
      out.faces.push_back({c[0], c[1], c[2], uint8_t(q.axis * 2 + q.positive), 0, q.material});
    }
    std::sort(out.faces.begin(), out.faces.end(), [](const auto& a, const auto& b) {
      return std::tie(a.z, a.y, a.x, a.dir) < std::tie(b.z, b.y, b.x, b.dir);
    });
    return out;
  }
  auto f = decode_vfp(file, options);
  if (!f.ok()) {
    if (problem) *problem = f.error().to_text();
    return std::nullopt;
  }
  const Vox0& v = *f->vox0();
  std::vector<uint16_t> joints;
  if (f->vskn()) {
    auto jm = joint_map(v, *f->vskn());
    if (!jm.ok()) {
      if (problem) *problem = jm.error().to_text();
      return std::nullopt;
    }
    joints = std::move(*jm);
  }
  out.size[0] = v.size_x, out.size[1] = v.size_y, out.size[2] = v.size_z;
  auto joint = [&](size_t i) -> uint16_t { return joints.empty() ? 0 : joints[i]; };
  for (uint32_t z = 0; z < v.size_z; ++z)
    for (uint32_t y = 0; y < v.size_y; ++y)
      for (uint32_t x = 0; x < v.size_x; ++x) {
        const size_t i = v.index(x, y, z);
        if (v.voxels[i] == 0) continue;
        const int64_t p[3] = {x, y, z};
        const uint32_t n[3] = {v.size_x, v.size_y, v.size_z};
        for (uint8_t dir = 0; dir < 6; ++dir) {
          int64_t q[3] = {p[0], p[1], p[2]};
          q[dir / 2] += dir % 2 ? 1 : -1;
          bool exposed = q[dir / 2] < 0 || q[dir / 2] >= int64_t(n[dir / 2]);
          if (!exposed) {
            const size_t k = v.index(uint32_t(q[0]), uint32_t(q[1]), uint32_t(q[2]));
            exposed = v.voxels[k] == 0 || joint(k) != joint(i);
          }
          if (exposed) out.faces.push_back({x, y, z, dir, joint(i), v.voxels[i]});
        }
      }
  return out;
}

Judgement judge_mesh(const MeshFaces& faces, size_t reference_quads, const RunOutcome& run,
                     std::string* quality) {
  if (auto j = detail::abnormal_run(run)) return *j;
  if (run.exit_code == 1)
    return detail::judge_rejection_run(run, false, "", CodeMode::Strict, "a mesh");
  std::string problem;
  auto doc = parse_output(run.out, problem);
  if (!doc) return {Verdict::Crash, "exit 0 with invalid JSON on stdout: " + problem};
  const json* quads = doc->is_object() && doc->contains("quads") ? &(*doc)["quads"] : nullptr;
  if (!quads || !quads->is_array()) return {Verdict::Fail, "the output has no \"quads\" array"};
  if (quality)
    *quality = std::to_string(quads->size()) + " quads (reference " +
               std::to_string(reference_quads) + ")";
  std::unordered_map<uint64_t, size_t> index;  // face key -> position in faces.faces
  index.reserve(faces.faces.size());
  for (size_t i = 0; i < faces.faces.size(); ++i) {
    const auto& f = faces.faces[i];
    index.emplace(face_key(f.x, f.y, f.z, f.dir), i);
  }
  std::vector<int64_t> covered_by(faces.faces.size(), -1);
  for (size_t qi = 0; qi < quads->size(); ++qi) {
    const json& q = (*quads)[qi];
    const std::string name = "quad[" + std::to_string(qi) + "]";
    if (!q.is_object() || !q.contains("normal") || !q["normal"].is_string() ||
        !q.contains("voxels") || !q["voxels"].is_array() || q["voxels"].size() != 6 ||
        !q.contains("joint") || !q["joint"].is_number_unsigned() || !q.contains("color") ||
        !q["color"].is_number_unsigned())
      return {Verdict::Fail, name +
                                 " is not {\"normal\", \"voxels\": [6 integers], \"joint\", "
                                 "\"color\"}: " +
                                 q.dump().substr(0, 120)};
    int dir = -1;
    for (int d = 0; d < 6; ++d)
      if (q["normal"] == kDirNames[d]) dir = d;
    if (dir < 0) return {Verdict::Fail, name + ": unknown normal " + q["normal"].dump()};
    uint64_t b[6];
    for (int k = 0; k < 6; ++k) {
      if (!q["voxels"][k].is_number_unsigned())
        return {Verdict::Fail, name + ": voxels must be non-negative integers"};
      b[k] = q["voxels"][k].get<uint64_t>();
    }
    for (int a = 0; a < 3; ++a)
      if (b[a] > b[a + 3] || b[a + 3] >= faces.size[a])
        return {Verdict::Fail, name + ": the box is empty or leaves the grid"};
    if (b[dir / 2] != b[dir / 2 + 3])
      return {Verdict::Fail,
              name + ": the box is not one voxel thick along its normal " + kDirNames[dir]};
    const uint64_t joint = q["joint"].get<uint64_t>(), color = q["color"].get<uint64_t>();
    for (uint64_t z = b[2]; z <= b[5]; ++z)
      for (uint64_t y = b[1]; y <= b[4]; ++y)
        for (uint64_t x = b[0]; x <= b[3]; ++x) {
          const std::string at = std::string(kDirNames[dir]) + " face of voxel (" +
                                 std::to_string(x) + ", " + std::to_string(y) + ", " +
                                 std::to_string(z) + ")";
          auto it = index.find(face_key(x, y, z, uint64_t(dir)));
          if (it == index.end())
            return {Verdict::Fail, name + " covers the " + at +
                                       ", which is not exposed (empty voxel, or its neighbour is "
                                       "solid with the same joint)"};
          const auto& f = faces.faces[it->second];
          if (f.joint != joint || f.color != color)
            return {Verdict::Fail, name + " (joint " + std::to_string(joint) + ", color " +
                                       std::to_string(color) + ") covers the " + at +
                                       ", which has joint " + std::to_string(f.joint) +
                                       " and color " + std::to_string(f.color)};
          if (covered_by[it->second] >= 0)
            return {Verdict::Fail, name + " covers the " + at + ", already covered by quad[" +
                                       std::to_string(covered_by[it->second]) + "]"};
          covered_by[it->second] = int64_t(qi);
        }
  }
  for (size_t i = 0; i < faces.faces.size(); ++i)
    if (covered_by[i] < 0)
      return {Verdict::Fail, "no quad covers " + face_text(faces.faces[i]) + ", which is exposed"};
  return {Verdict::Pass, ""};
}

Judgement judge_compile(const WriterExpectation& expect, const std::string& json_path,
                        bool check_path, const RunOutcome& run,
                        const std::optional<std::vector<uint8_t>>& produced, CodeMode codes) {
  Judgement j = judge_writer(expect, run, produced, codes);
  if (!expect.error || json_path.empty() || run.exit_code != 1 || j.verdict != Verdict::Pass)
    return j;
  std::string problem;
  auto doc = parse_output(run.out, problem);
  std::string got;
  if (doc && doc->is_object() && doc->contains("path") && (*doc)["path"].is_string())
    got = (*doc)["path"].get<std::string>();
  if (got == json_path) return j;
  j.reason = "JSON path " + (got.empty() ? std::string("(none)") : got) + ", expected " +
             json_path + (check_path ? "" : " (counts with --recommended)");
  if (check_path) j.verdict = Verdict::Fail;
  return j;
}

}  // namespace voxrig::conform
