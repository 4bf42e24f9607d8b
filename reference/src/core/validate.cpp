// The joint-hierarchy rules (voxrig/validate.h): one implementation for every format.
#include "voxrig/validate.h"

#include <algorithm>
#include <utility>

namespace voxrig {

std::optional<size_t> first_parent_out_of_range(std::span<const int32_t> parents) {
  for (size_t i = 0; i < parents.size(); ++i)
    if (!parent_in_range(parents[i], parents.size())) return i;
  return std::nullopt;
}

std::optional<size_t> first_cycle_start(std::span<const int32_t> parents) {
  // stamp[i] = 1 + the start of the walk that first reached i. Every earlier walk ended at a
  // root (otherwise we returned), so meeting an older stamp means "reaches a root"; meeting the
  // current walk's stamp means the chain loops without ever reaching one.
  std::vector<size_t> stamp(parents.size(), 0);
  for (size_t start = 0; start < parents.size(); ++start) {
    if (stamp[start] != 0) continue;
    const size_t mark = start + 1;
    size_t cur = start;
    stamp[cur] = mark;
    while (parents[cur] >= 0) {
      cur = static_cast<size_t>(parents[cur]);
      if (stamp[cur] == mark) return start;
      if (stamp[cur] != 0) break;
      stamp[cur] = mark;
    }
  }
  return std::nullopt;
}

std::vector<uint32_t> parent_first_order(std::span<const int32_t> parents) {
  const size_t n = parents.size();
  // Depths by walking each chain once up to a joint whose depth is known (or a root), then
  // assigning depths back down the walk: O(n) however deep the hierarchy.
  std::vector<uint8_t> done(n, 0);
  std::vector<uint32_t> depth(n, 0);
  std::vector<uint32_t> walk;
  walk.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (done[i]) continue;
    walk.clear();
    int64_t j = static_cast<int64_t>(i);
    while (j >= 0 && !done[j]) {
      done[j] = 1;
      walk.push_back(static_cast<uint32_t>(j));
      j = parents[j];
    }
    uint32_t d = j < 0 ? 0 : depth[j] + 1;
    for (size_t k = walk.size(); k-- > 0;) depth[walk[k]] = d++;
  }
  // A stable counting sort by depth.
  uint32_t max_depth = 0;
  for (uint32_t d : depth) max_depth = std::max(max_depth, d);
  std::vector<uint32_t> start(size_t{max_depth} + 2, 0);
  for (size_t i = 0; i < n; ++i) ++start[depth[i] + 1];
  for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[start[depth[i]]++] = static_cast<uint32_t>(i);
  return order;
}

std::optional<JointRuleBreak> check_joint_hierarchy(std::span<const uint16_t> ids,
                                                    std::span<const int16_t> parent_ids,
                                                    std::vector<int32_t>* parent_index) {
  const size_t n = std::min(ids.size(), parent_ids.size());
  // (id, index) sorted: duplicates are adjacent, and a parent id resolves by binary search.
  std::vector<std::pair<uint16_t, uint32_t>> by_id(n);
  for (size_t i = 0; i < n; ++i) by_id[i] = {ids[i], static_cast<uint32_t>(i)};
  // Decoded skeletons arrive sorted (SKEL ids increase): skip the sort then.
  if (!std::is_sorted(by_id.begin(), by_id.end())) std::sort(by_id.begin(), by_id.end());
  for (size_t i = 1; i < n; ++i)
    if (by_id[i].first == by_id[i - 1].first)
      return JointRuleBreak{JointRule::DuplicateId, by_id[i].second};

  // Parent lookups. Ids spanning a range of at most 8 per joint (every skeleton a tool writes:
  // ids count up from 0 or so): a table id - min -> index, O(1) per joint and bounded by 8n
  // entries. Otherwise a branch-free lower bound over the sorted ids (a parent id per joint is
  // a random probe, which a branchy search mispredicts at about every step).
  std::vector<int32_t> parents(n, -1);
  if (n == 0) {
    if (parent_index) parent_index->clear();
    return std::nullopt;
  }
  const uint32_t min_id = by_id.front().first;
  const size_t range = size_t{by_id.back().first} - min_id + 1;
  if (range <= 8 * n) {
    std::vector<int32_t> index_of(range, -1);
    for (const auto& [id, index] : by_id) index_of[id - min_id] = static_cast<int32_t>(index);
    for (size_t i = 0; i < n; ++i) {
      const int16_t p = parent_ids[i];
      if (p == -1) continue;
      const int64_t slot = int64_t{p} - min_id;
      if (p < 0 || slot < 0 || slot >= static_cast<int64_t>(range) || index_of[slot] < 0)
        return JointRuleBreak{JointRule::ParentMissing, i};
      parents[i] = index_of[slot];
    }
  } else {
    std::vector<uint16_t> sorted_ids(n);
    for (size_t i = 0; i < n; ++i) sorted_ids[i] = by_id[i].first;
    for (size_t i = 0; i < n; ++i) {
      const int16_t p = parent_ids[i];
      if (p == -1) continue;
      if (p < 0) return JointRuleBreak{JointRule::ParentMissing, i};
      const uint16_t want = static_cast<uint16_t>(p);
      const uint16_t* b = sorted_ids.data();
      for (size_t len = n; len > 1;) {
        const size_t half = len / 2;
        b += b[half - 1] < want ? half : 0;
        len -= half;
      }
      const size_t at = static_cast<size_t>(b - sorted_ids.data()) + (*b < want ? 1 : 0);
      if (at == n || sorted_ids[at] != want) return JointRuleBreak{JointRule::ParentMissing, i};
      parents[i] = static_cast<int32_t>(by_id[at].second);
    }
  }
  if (auto start = first_cycle_start(parents))
    return JointRuleBreak{JointRule::ParentCycle, *start};
  if (parent_index) *parent_index = std::move(parents);
  return std::nullopt;
}

}  // namespace voxrig
