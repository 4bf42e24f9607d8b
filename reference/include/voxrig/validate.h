// voxrig/validate.h — the joint-hierarchy rules, once, over plain model data.
//
// Shape: ozz-animation's RawSkeleton::Validate(). Every format with a hierarchy states the same
// rules (docs/spec/rkch.md#cross-reference-validation): unique joint ids, parents that exist, no cycles.
// The SKEL and KFA decoders, the RKCH cross-reference check, the JSON compiler, RigRuntime and
// RkcRig all ask these functions *which* joint breaks *which* rule and turn the answer into their
// own error (code, offset, path): the rules live here, the error vocabulary at the caller.
//
// Nothing here reads bytes or builds an Error. All functions are safe on untrusted data (any
// values, any length), never fail, and allocate O(n) scratch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace voxrig {

// ---- index form: parents[i] is the index of joint i's parent; negative is a root ----

/// The parent-range rule for one joint of `n`: its parent is -1 (a root) or an index in [0, n)
/// (RKCH/KFA's rule: -2 is out of range). For callers that hold parents inside their own
/// records rather than in one array (the RKCH decoder's success path); the others call
/// first_parent_out_of_range, which applies this rule in order.
constexpr bool parent_in_range(int32_t parent, size_t n) {
  return parent == -1 || (parent >= 0 && static_cast<uint64_t>(parent) < n);
}

/// True when joint `i`'s parent comes before it in order (a root's -1 included). A hierarchy in
/// range where this holds for every joint has no cycle (every chain strictly descends to a
/// root), so a caller that sees it needs no first_cycle_start and no scratch.
constexpr bool parent_precedes(int32_t parent, size_t i) {
  return static_cast<int64_t>(parent) < static_cast<int64_t>(i);
}

/// The first index, in order, whose parent breaks parent_in_range, or nullopt.
std::optional<size_t> first_parent_out_of_range(std::span<const int32_t> parents);

/// The first index, in order, whose parent chain never reaches a root (a negative parent), or
/// nullopt. A self-parent is a cycle; a joint whose chain runs into a cycle is reported too.
/// Precondition: every non-negative parent is < parents.size(). O(n) time and memory (the
/// seed's "more than n hops from each joint" walk gives the same answer in O(n^2)).
std::optional<size_t> first_cycle_start(std::span<const int32_t> parents);

/// The joint indices parents first: stably ordered by depth (roots, then their children, ...),
/// so within one depth the model order is kept. Precondition: first_cycle_start(parents) is
/// nullopt and parents are in range (negative = root).
std::vector<uint32_t> parent_first_order(std::span<const int32_t> parents);

// ---- id form: joints named by u16 ids, parents by id (-1 = root), as SKEL and the JSON rig ----

/// The rules of the id form, in the order they are checked.
enum class JointRule : uint8_t {
  DuplicateId,    // two joints share an id
  ParentMissing,  // a parent that is neither -1 nor the id of a joint
  ParentCycle,    // a parent chain that never reaches a root
};

/// Which joint (its index in model order) breaks which rule.
struct JointRuleBreak {
  JointRule rule;
  size_t joint;
};

/// Checks `ids[i]` / `parent_ids[i]` (same length; a length mismatch is a caller bug and checks
/// the shorter prefix) in this order, first failure wins:
///   DuplicateId   — for the smallest id used twice, its second joint in model order;
///   ParentMissing — the first joint in model order whose parent is not -1 and names no joint
///                   (any other negative parent included);
///   ParentCycle   — first_cycle_start over the resolved parents.
/// On success returns nullopt and, when `parent_index` is not null, stores each joint's parent
/// index (-1 for a root) there.
std::optional<JointRuleBreak> check_joint_hierarchy(std::span<const uint16_t> ids,
                                                    std::span<const int16_t> parent_ids,
                                                    std::vector<int32_t>* parent_index = nullptr);

}  // namespace voxrig
