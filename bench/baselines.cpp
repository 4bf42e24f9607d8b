// bench/baselines.cpp — straightforward reference implementations timed next to the library.
#include "baselines.h"

#include <algorithm>
#include <cmath>

namespace voxrig::bench {

uint64_t scan_grid(const Vox0& vox0) {
  uint64_t solid = 0;
  for (uint8_t v : vox0.voxels) solid += v != 0;
  return solid;
}

void per_voxel_greedy(const Vox0& g, std::span<const uint16_t> joints, std::vector<Quad>& out,
                      std::vector<uint32_t>& mask) {
  out.clear();
  const uint32_t dims[3] = {g.size_x, g.size_y, g.size_z};
  const bool with_joints = !joints.empty();
  const auto at = [&](const uint32_t p[3]) { return g.index(p[0], p[1], p[2]); };
  for (uint32_t d = 0; d < 3; ++d) {
    const uint32_t u = (d + 1) % 3, v = (d + 2) % 3;
    const uint32_t du = dims[u], dv = dims[v];
    mask.assign(size_t{du} * dv, 0);
    for (uint32_t positive = 0; positive < 2; ++positive) {
      for (uint32_t s = 0; s < dims[d]; ++s) {
        // Mask: material | joint << 8 of every exposed face of this slice, 0 = no face.
        uint32_t p[3];
        p[d] = s;
        for (uint32_t iv = 0; iv < dv; ++iv) {
          p[v] = iv;
          for (uint32_t iu = 0; iu < du; ++iu) {
            p[u] = iu;
            const size_t i = at(p);
            uint32_t key = 0;
            if (g.voxels[i] != 0) {
              uint32_t q[3] = {p[0], p[1], p[2]};
              bool exposed;
              if (positive ? s + 1 >= dims[d] : s == 0) {
                exposed = true;
              } else {
                q[d] = positive ? s + 1 : s - 1;
                const size_t n = at(q);
                exposed = g.voxels[n] == 0 || (with_joints && joints[n] != joints[i]);
              }
              if (exposed) key = g.voxels[i] | (with_joints ? uint32_t{joints[i]} << 8 : 0);
            }
            mask[size_t{iv} * du + iu] = key;
          }
        }
        // Greedy merge: widest run along u, then as many full rows along v as match.
        for (uint32_t iv = 0; iv < dv; ++iv) {
          for (uint32_t iu = 0; iu < du;) {
            const uint32_t key = mask[size_t{iv} * du + iu];
            if (key == 0) {
              ++iu;
              continue;
            }
            uint32_t w = 1;
            while (iu + w < du && mask[size_t{iv} * du + iu + w] == key) ++w;
            uint32_t h = 1;
            for (; iv + h < dv; ++h) {
              bool row = true;
              for (uint32_t k = 0; k < w && row; ++k)
                row = mask[size_t{iv + h} * du + iu + k] == key;
              if (!row) break;
            }
            for (uint32_t r = 0; r < h; ++r) std::fill_n(&mask[size_t{iv + r} * du + iu], w, 0u);
            uint32_t c[3];
            c[d] = s + positive;
            c[u] = iu;
            c[v] = iv;
            Quad quad;
            quad.x = c[0];
            quad.y = c[1];
            quad.z = c[2];
            quad.w = w;
            quad.h = h;
            quad.axis = static_cast<uint8_t>(d);
            quad.positive = static_cast<uint8_t>(positive);
            quad.joint = static_cast<uint16_t>(key >> 8);
            quad.material = key & 0xFF;
            out.push_back(quad);
            iu += w;
          }
        }
      }
    }
  }
}

PlainSampler::PlainSampler(const Skel& skel, const Anim& anim) {
  const AnimClip& clip = anim.clips.at(0);
  first_.push_back(0);
  for (size_t j = 0; j < skel.joints.size(); ++j) {
    for (const AnimKey& k : clip.tracks.at(j).keys) {
      times_.push_back(static_cast<float>(k.time_ms));
      Trs v = k.trs;
      v.r = normalized(v.r);
      values_.push_back(v);
    }
    first_.push_back(static_cast<uint32_t>(times_.size()));
  }
}

void PlainSampler::sample(float t, std::span<Trs> out) const {
  for (size_t j = 0; j + 1 < first_.size(); ++j) {
    const float* b = times_.data() + first_[j];
    const float* e = times_.data() + first_[j + 1];
    const float* hi = std::upper_bound(b, e, t);
    if (hi == b || hi == e) {  // before the first or after the last key: hold it
      out[j] = values_[(hi == b ? b : e - 1) - times_.data()];
      continue;
    }
    const Trs& a = values_[hi - 1 - times_.data()];
    const Trs& c = values_[hi - times_.data()];
    const float f = (t - hi[-1]) / (hi[0] - hi[-1]);
    Trs r;
    r.t = {a.t.x + (c.t.x - a.t.x) * f, a.t.y + (c.t.y - a.t.y) * f, a.t.z + (c.t.z - a.t.z) * f};
    r.s = {a.s.x + (c.s.x - a.s.x) * f, a.s.y + (c.s.y - a.s.y) * f, a.s.z + (c.s.z - a.s.z) * f};
    const float dot = a.r.x * c.r.x + a.r.y * c.r.y + a.r.z * c.r.z + a.r.w * c.r.w;
    const float sg = dot < 0 ? -1.0f : 1.0f;
    Quat q{a.r.x + (sg * c.r.x - a.r.x) * f, a.r.y + (sg * c.r.y - a.r.y) * f,
           a.r.z + (sg * c.r.z - a.r.z) * f, a.r.w + (sg * c.r.w - a.r.w) * f};
    const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    r.r = {q.x / len, q.y / len, q.z / len, q.w / len};
    out[j] = r;
  }
}

}  // namespace voxrig::bench
