// voxrig conform: JSON dump comparison (docs/spec/protocols.md#comparison, docs/spec/conventions.md#D5/D17).
// Every expectation below is written by hand: bit patterns from IEEE-754 by hand, paths as the
// runner documents them.
#include <gtest/gtest.h>

#include <string>

#include "voxrig/conform/conform.h"

namespace voxrig::conform {
namespace {

JsonDiff cmp(std::string_view e, std::string_view a) { return compare_dump_json(e, a); }

TEST(ConformJson, KeyOrderIsFree) {
  EXPECT_EQ(cmp(R"({"a": 1, "b": [1.5, "x"], "c": {"d": null, "e": true}})",
                R"({"c": {"e": true, "d": null}, "b": [1.5, "x"], "a": 1})")
                .outcome,
            JsonCompare::Equal);
}

TEST(ConformJson, NegativeZeroIsNotZero) {
  JsonDiff d = cmp(R"({"t": [0.0, -0.0]})", R"({"t": [0.0, 0.0]})");
  EXPECT_EQ(d.outcome, JsonCompare::Differ);
  EXPECT_EQ(d.path, "$.t[1]");
  EXPECT_NE(d.detail.find("0x80000000"), std::string::npos) << d.detail;
  EXPECT_NE(d.detail.find("0x00000000"), std::string::npos) << d.detail;
  EXPECT_EQ(cmp(R"({"t": -0.0})", R"({"t": -0.0})").outcome, JsonCompare::Equal);
  // An integer literal is an integer, and integers have no sign of zero: D17 asks for "-0.0".
  EXPECT_EQ(cmp(R"({"t": -0.0})", R"({"t": -0})").outcome, JsonCompare::Differ);
  EXPECT_EQ(cmp(R"({"t": -0.0})", R"({"t": -0e0})").outcome, JsonCompare::Equal);
}

TEST(ConformJson, NanPayloadsAreStringsComparedExactly) {
  EXPECT_EQ(cmp(R"({"q": "f32:0x7FC00000"})", R"({"q": "f32:0x7FC00000"})").outcome,
            JsonCompare::Equal);
  JsonDiff d = cmp(R"({"q": "f32:0x7FC00000"})", R"({"q": "f32:0x7FC00001"})");
  EXPECT_EQ(d.outcome, JsonCompare::Differ);
  EXPECT_EQ(d.path, "$.q");
  // A NaN written as a number is not the string the dump schema asks for.
  EXPECT_EQ(cmp(R"({"q": "f32:0x7F800000"})", R"({"q": 1e39})").outcome, JsonCompare::Differ);
}

TEST(ConformJson, FloatsCompareAsBinary32Bits) {
  // 0.1f is 0x3DCCCCCD = 0.100000001490116...; "0.100000001" rounds to the same float.
  EXPECT_EQ(cmp("[0.1]", "[0.100000001]").outcome, JsonCompare::Equal);
  EXPECT_EQ(cmp("[0.1]", "[1e-1]").outcome, JsonCompare::Equal);
  // 0.10000001 is nearer the next float up (0x3DCCCCCE = 0.1000000089...).
  JsonDiff d = cmp("[0.1]", "[0.10000001]");
  EXPECT_EQ(d.outcome, JsonCompare::Differ);
  EXPECT_NE(d.detail.find("0x3DCCCCCD"), std::string::npos) << d.detail;
  EXPECT_NE(d.detail.find("0x3DCCCCCE"), std::string::npos) << d.detail;
  // A float field may be spelled as an integer literal (1 == 1.0 as JSON values)...
  EXPECT_EQ(cmp(R"({"s": 1.0})", R"({"s": 1})").outcome, JsonCompare::Equal);
  // ...but an integer field must stay an integer.
  d = cmp(R"({"n": 1})", R"({"n": 1.0})");
  EXPECT_EQ(d.outcome, JsonCompare::Differ);
  EXPECT_EQ(d.path, "$.n");
}

TEST(ConformJson, FloatTextRoundsDirectlyNotThroughDouble) {
  // Just below the midpoint between 1+2^-23 (0x3F800001) and 1+2^-22 (0x3F800002). Through a
  // double the text becomes exactly the midpoint, which ties to even: 0x3F800002 (wrong).
  EXPECT_EQ(json_number_f32_bits("1.00000017881393432617187499"), 0x3F800001u);
  EXPECT_EQ(json_number_f32_bits("1.000000178813934326171875"), 0x3F800002u);  // the tie itself
  EXPECT_EQ(json_number_f32_bits("-0.0"), 0x80000000u);
  EXPECT_EQ(json_number_f32_bits("0"), 0x00000000u);
  EXPECT_EQ(json_number_f32_bits("1.0"), 0x3F800000u);
  EXPECT_EQ(json_number_f32_bits("1e+38"), 0x7E967699u);
  EXPECT_EQ(json_number_f32_bits("1e39"), 0x7F800000u);  // overflow: infinity
  EXPECT_EQ(json_number_f32_bits("-1e39"), 0xFF800000u);
  EXPECT_EQ(json_number_f32_bits("1e-50"), 0x00000000u);    // underflow: zero
  EXPECT_EQ(json_number_f32_bits("1.4e-45"), 0x00000001u);  // smallest subnormal
  for (const char* bad : {"", "-", "01", "1.", ".5", "+1", "1e", "NaN", "0x10", "1 ", " 1"})
    EXPECT_EQ(json_number_f32_bits(bad), std::nullopt) << bad;
}

TEST(ConformJson, IntegersCompareExactlyAtAnySize) {
  EXPECT_EQ(cmp("[18446744073709551615]", "[18446744073709551615]").outcome, JsonCompare::Equal);
  EXPECT_EQ(cmp("[18446744073709551616]", "[18446744073709551616]").outcome, JsonCompare::Equal);
  EXPECT_EQ(cmp("[18446744073709551616]", "[18446744073709551617]").outcome, JsonCompare::Differ);
  // 16777217 and 16777216 are the same binary32 but different integers.
  EXPECT_EQ(cmp("[16777217]", "[16777216]").outcome, JsonCompare::Differ);
  EXPECT_EQ(cmp("[-5]", "[-5]").outcome, JsonCompare::Equal);
  EXPECT_EQ(cmp("[0]", "[-0]").outcome, JsonCompare::Equal);
}

TEST(ConformJson, FirstDifferenceIsReportedWithItsPath) {
  JsonDiff d =
      cmp(R"({"sections": [{"tag": "VOX0"}, {"tag": "SKEL", "joints": [{"name": "a"}]}]})",
          R"({"sections": [{"tag": "VOX0"}, {"tag": "SKEL", "joints": [{"name": "b"}]}]})");
  EXPECT_EQ(d.outcome, JsonCompare::Differ);
  EXPECT_EQ(d.path, "$.sections[1].joints[0].name");

  d = cmp(R"({"a": [1, 2, 3]})", R"({"a": [1, 2]})");
  EXPECT_EQ(d.path, "$.a");
  EXPECT_NE(d.detail.find("3 elements"), std::string::npos) << d.detail;

  d = cmp(R"({"a": 1, "b": 2})", R"({"a": 1})");
  EXPECT_EQ(d.path, "$.b");
  EXPECT_NE(d.detail.find("missing"), std::string::npos);

  d = cmp(R"({"a": 1})", R"({"a": 1, "zz": 0})");
  EXPECT_EQ(d.path, "$.zz");
  EXPECT_NE(d.detail.find("unexpected"), std::string::npos);

  d = cmp(R"({"a b": {"x\"y": 1}})", R"({"a b": {"x\"y": 2}})");
  EXPECT_EQ(d.path, R"($["a b"]["x\"y"])");

  d = cmp(R"({"a": "1"})", R"({"a": 1})");
  EXPECT_EQ(d.path, "$.a");
  EXPECT_NE(d.detail.find("string"), std::string::npos);

  // The first difference in the expected document's key order wins.
  d = cmp(R"({"z": 1, "a": 1})", R"({"z": 2, "a": 2})");
  EXPECT_EQ(d.path, "$.z");
}

TEST(ConformJson, InvalidDocumentsAreClassifiedBySide) {
  EXPECT_EQ(cmp("{", "{}").outcome, JsonCompare::ExpectedInvalid);
  EXPECT_EQ(cmp("{}", "{").outcome, JsonCompare::ActualInvalid);
  EXPECT_EQ(cmp("{}", "").outcome, JsonCompare::ActualInvalid);
  EXPECT_EQ(cmp("{}", "{} {}").outcome, JsonCompare::ActualInvalid);
  EXPECT_EQ(cmp("{}", "{}\n").outcome, JsonCompare::Equal);
  EXPECT_EQ(cmp("{}", "Segmentation fault").outcome, JsonCompare::ActualInvalid);
  EXPECT_EQ(cmp("{}", "{\"a\": NaN}").outcome, JsonCompare::ActualInvalid);
  EXPECT_EQ(cmp("[\"x\"]", "[\"\xff\"]").outcome, JsonCompare::ActualInvalid);  // not UTF-8
  JsonDiff d = cmp(R"({"a": 1})", R"({"a": 1, "a": 1})");
  EXPECT_EQ(d.outcome, JsonCompare::ActualInvalid);
  EXPECT_NE(d.detail.find("duplicate"), std::string::npos) << d.detail;
}

TEST(ConformJson, HostileNestingIsBounded) {
  std::string deep(kMaxJsonDepth + 1, '[');
  deep += std::string(kMaxJsonDepth + 1, ']');
  EXPECT_EQ(cmp("[]", deep).outcome, JsonCompare::ActualInvalid);
  std::string ok(kMaxJsonDepth, '[');
  ok += std::string(kMaxJsonDepth, ']');
  EXPECT_EQ(cmp(ok, ok).outcome, JsonCompare::Equal);
}

TEST(ConformJson, HostileWidthIsBounded) {
  std::string wide = "[";
  for (size_t i = 0; i <= kMaxJsonValues; ++i) wide += i ? ",0" : "0";
  wide += "]";
  EXPECT_EQ(cmp("[]", wide).outcome, JsonCompare::ActualInvalid);
}

TEST(ConformJson, RejectionCodeNeedsAnObjectWithAStringError) {
  EXPECT_EQ(rejection_code(R"({"error": "skel.cycle"})"), "skel.cycle");
  EXPECT_EQ(rejection_code(R"({"error": "skel.cycle", "offset": 120, "path": "SKEL/joint[3]"})"
                           "\n"),
            "skel.cycle");
  EXPECT_EQ(rejection_code(R"({"error": 3})"), std::nullopt);
  EXPECT_EQ(rejection_code(R"({"code": "skel.cycle"})"), std::nullopt);
  EXPECT_EQ(rejection_code(R"(["error"])"), std::nullopt);
  EXPECT_EQ(rejection_code(R"({"error": "a"} trailing)"), std::nullopt);
  EXPECT_EQ(rejection_code(""), std::nullopt);
}

}  // namespace
}  // namespace voxrig::conform
