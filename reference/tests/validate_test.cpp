// The joint-hierarchy rules of voxrig/validate.h over plain arrays, with the answers worked out
// by hand (which joint, which rule), independent of any codec that calls them.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "voxrig/validate.h"

namespace voxrig {
namespace {

TEST(ValidateIndexForm, ParentRange) {
  const std::vector<int32_t> ok = {-1, 0, 0, 2};
  EXPECT_EQ(first_parent_out_of_range(ok), std::nullopt);
  const std::vector<int32_t> too_big = {-1, 0, 4, 1};  // joint 2 names index 4 of 4
  EXPECT_EQ(first_parent_out_of_range(too_big), std::optional<size_t>(2));
  const std::vector<int32_t> minus_two = {-1, -2, 9};  // -2 is not a root: joint 1 comes first
  EXPECT_EQ(first_parent_out_of_range(minus_two), std::optional<size_t>(1));
  EXPECT_EQ(first_parent_out_of_range({}), std::nullopt);
}

TEST(ValidateIndexForm, Cycles) {
  const std::vector<int32_t> tree = {-1, 0, 1, 1, -1, 4};
  EXPECT_EQ(first_cycle_start(tree), std::nullopt);
  const std::vector<int32_t> self = {-1, 1};  // joint 1 is its own parent
  EXPECT_EQ(first_cycle_start(self), std::optional<size_t>(1));
  // Joint 0 only runs into the 1 <-> 2 cycle; it is still the first joint that never reaches a
  // root.
  const std::vector<int32_t> into_cycle = {1, 2, 1, -1};
  EXPECT_EQ(first_cycle_start(into_cycle), std::optional<size_t>(0));
}

TEST(ValidateIndexForm, ParentFirstOrderIsStableByDepth) {
  // depths: 0:2, 1:0, 2:1, 3:0, 4:2, 5:1
  const std::vector<int32_t> parents = {2, -1, 1, -1, 5, 3};
  EXPECT_EQ(parent_first_order(parents), (std::vector<uint32_t>{1, 3, 2, 5, 0, 4}));
}

TEST(ValidateIdForm, AcceptsATreeAndResolvesParentIndices) {
  const std::vector<uint16_t> ids = {10, 3, 7};
  const std::vector<int16_t> parents = {-1, 10, 3};
  std::vector<int32_t> index;
  EXPECT_EQ(check_joint_hierarchy(ids, parents, &index), std::nullopt);
  EXPECT_EQ(index, (std::vector<int32_t>{-1, 0, 1}));
}

TEST(ValidateIdForm, DuplicateIdNamesTheSecondJointOfTheSmallestDuplicatedId) {
  // ids 5 and 2 are both used twice; the smallest (2) wins, at its second joint (index 3).
  const std::vector<uint16_t> ids = {5, 2, 5, 2};
  const std::vector<int16_t> parents = {-1, -1, -1, -1};
  const auto broken = check_joint_hierarchy(ids, parents);
  ASSERT_TRUE(broken.has_value());
  EXPECT_EQ(broken->rule, JointRule::DuplicateId);
  EXPECT_EQ(broken->joint, 3u);
}

TEST(ValidateIdForm, MissingParentBeforeCycle) {
  // Joint 1 names a missing id 9 and joints 2 and 3 form a cycle: the missing parent is checked
  // first. A parent of -2 is missing too (only -1 is a root).
  const std::vector<uint16_t> ids = {0, 1, 2, 3};
  EXPECT_EQ(check_joint_hierarchy(ids, std::vector<int16_t>{-1, 9, 3, 2})->rule,
            JointRule::ParentMissing);
  EXPECT_EQ(check_joint_hierarchy(ids, std::vector<int16_t>{-1, 9, 3, 2})->joint, 1u);
  EXPECT_EQ(check_joint_hierarchy(ids, std::vector<int16_t>{-1, 0, -2, 0})->joint, 2u);
  const auto cycle = check_joint_hierarchy(ids, std::vector<int16_t>{-1, 0, 3, 2});
  ASSERT_TRUE(cycle.has_value());
  EXPECT_EQ(cycle->rule, JointRule::ParentCycle);
  EXPECT_EQ(cycle->joint, 2u);
}

}  // namespace
}  // namespace voxrig
