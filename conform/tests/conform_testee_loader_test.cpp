// voxrig/conform/testee_loader.h: loading a testee library and classifying its answers. The fake
// testee (tests/fixtures/fake_testee.cpp) answers by the first input byte; the expectations below
// are what that file was written to return.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "voxrig/conform/testee_loader.h"

namespace voxrig::conform {
namespace {

std::unique_ptr<Testee> load_fake() {
  std::string error;
  auto t = Testee::load(VOXRIG_FAKE_TESTEE, &error);
  EXPECT_NE(t, nullptr) << error;
  return t;
}

TesteeOutcome run(const Testee& t, std::string_view input, std::string_view profile = "vfp-rig") {
  std::vector<uint8_t> bytes(input.begin(), input.end());
  return t.dump(bytes, profile);
}

TEST(TesteeLoader, AcceptCopiesTheDumpAndPassesProfileAndNullForEmpty) {
  auto t = load_fake();
  ASSERT_NE(t, nullptr);
  TesteeOutcome o = run(*t, "", "rkc-compat");
  EXPECT_EQ(o.status, TesteeStatus::Accept);
  EXPECT_EQ(o.text, R"({"profile": "rkc-compat", "null": true})");
  o = run(*t, "abc");
  EXPECT_EQ(o.status, TesteeStatus::Accept);
  EXPECT_EQ(o.text, R"({"size": 3})");
}

TEST(TesteeLoader, RejectReturnsTheCode) {
  auto t = load_fake();
  ASSERT_NE(t, nullptr);
  TesteeOutcome o = run(*t, "R");
  EXPECT_EQ(o.status, TesteeStatus::Reject);
  EXPECT_EQ(o.text, "vox0.truncated");
}

TEST(TesteeLoader, OtherReturnValuesNullAndBadLengthsAreFailures) {
  auto t = load_fake();
  ASSERT_NE(t, nullptr);
  TesteeOutcome o = run(*t, "F");
  EXPECT_EQ(o.status, TesteeStatus::Failure);
  EXPECT_EQ(o.text, "voxrig_testee_dump returned 7");
  o = run(*t, "N");
  EXPECT_EQ(o.status, TesteeStatus::Failure);
  EXPECT_NE(o.text.find("NULL"), std::string::npos) << o.text;
  o = run(*t, "L");
  EXPECT_EQ(o.status, TesteeStatus::Failure);
  EXPECT_NE(o.text.find("runs past its NUL"), std::string::npos) << o.text;
  EXPECT_EQ(to_string(TesteeStatus::Failure), "testee failure");
}

TEST(TesteeLoader, MissingFileIsNamed) {
  std::string error;
  EXPECT_EQ(Testee::load("/nonexistent/dir/libnothing.so", &error), nullptr);
  EXPECT_NE(error.find("cannot load testee /nonexistent/dir/libnothing.so"), std::string::npos)
      << error;
}

TEST(TesteeLoader, MissingSymbolIsNamed) {
  std::string error;
  EXPECT_EQ(Testee::load(VOXRIG_FAKE_TESTEE_NO_FREE, &error), nullptr);
  EXPECT_NE(error.find(VOXRIG_FAKE_TESTEE_NO_FREE), std::string::npos) << error;
  EXPECT_NE(error.find("does not export voxrig_testee_free"), std::string::npos) << error;
}

}  // namespace
}  // namespace voxrig::conform
