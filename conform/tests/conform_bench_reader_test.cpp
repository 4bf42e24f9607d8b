// voxrig/conform/bench_reader.h: a reader that dumps what the reference dumps is timed next to
// it (Google Benchmark JSON with READER/, REFERENCE/ and process_startup rows); one whose dump
// differs, or that rejects, is reported and never timed.
#include "voxrig/conform/bench_reader.h"

#include <gtest/gtest.h>

#include <fstream>

#include "temp_dir.h"
#include "voxrig/any_format.h"
#include "voxrig/conform/corpus.h"

namespace voxrig::conform {
namespace {

// One golden file, and a "reader" that prints a fixed text whatever it is asked (`cat FILE #`:
// the shell comment swallows the protocol's arguments).
class BenchReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto bytes =
        read_regular_file(std::string(VOXRIG_SOURCE_DIR) + "/golden/files/vfp/seed/rig.vfp");
    ASSERT_TRUE(bytes);
    cases_.push_back({"vfp_rig/seed", Profile::VfpRig, *bytes});
    dump_ = *dump_any(*bytes, Profile::VfpRig, Limits{});
    options_.repetitions = 2;
    options_.min_time = 0;
  }
  BenchResult bench(const std::string& printed) {
    std::ofstream(tmp_ / "out.json") << printed;
    return bench_reader(cases_, {nullptr, "cat " + tmp_ / "out.json" + " #"}, options_);
  }

  TempDir tmp_;
  std::vector<BenchCase> cases_;
  std::string dump_;
  BenchOptions options_;
};

TEST_F(BenchReaderTest, AMatchingReaderIsTimedBesideTheReference) {
  size_t steps = 0;
  options_.progress = [&](size_t done, size_t total, const std::string&) {
    EXPECT_EQ(done, ++steps);
    EXPECT_EQ(total, 6u);  // 2 repetitions x (READER, REFERENCE, process_startup)
  };
  const BenchResult r = bench(dump_);
  ASSERT_EQ(r.status, BenchStatus::Written) << r.problem;
  EXPECT_EQ(steps, 6u);
  for (const char* row :
       {"\"name\": \"READER/vfp_rig/seed\"", "\"name\": \"REFERENCE/vfp_rig/seed\"",
        "\"name\": \"READER/process_startup\"", "\"baseline\": 1",
        "\"bench_reader_mode\": \"reader\"", "\"repetition_index\": 1"})
    EXPECT_NE(r.json.find(row), std::string::npos) << row << "\n" << r.json;
}

TEST_F(BenchReaderTest, AWrongDumpIsReportedNotTimed) {
  const BenchResult r = bench("{\"format\": \"vfp\"}");
  EXPECT_EQ(r.status, BenchStatus::CheckFailed);
  EXPECT_NE(r.problem.find("vfp_rig/seed (vfp-rig): the reader's dump differs"), std::string::npos)
      << r.problem;
  EXPECT_TRUE(r.json.empty());
}

}  // namespace
}  // namespace voxrig::conform
