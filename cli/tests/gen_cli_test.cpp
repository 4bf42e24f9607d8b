// voxrig gen and voxrig conform --generated end to end in process (the corpus itself is tested
// beside its library, testing/tests/gen_corpus_test.cpp): usage errors of both commands, and a
// failing generated run keeps its corpus and names the first failing case with its command.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_test_support.h"
#include "commands.h"

namespace voxrig::cli {
namespace {

namespace fs = std::filesystem;

class GenCli : public ScratchDirTest {
 protected:
  int run(std::vector<std::string> argv) { return run_captured(std::move(argv), out_, err_); }
  std::string out_, err_;
};

TEST_F(GenCli, WritesACorpus) {
  ASSERT_EQ(run({"voxrig", "gen", "--count", "3", "--seed", "9", "--out", dir_ + "/a"}), kExitOk)
      << err_;
  EXPECT_NE(out_.find("gen: wrote 3 case(s) to " + dir_ + "/a (seed 9)"), std::string::npos)
      << out_;
  EXPECT_TRUE(fs::exists(dir_ + "/a/manifest.json"));
}

TEST_F(GenCli, UsageErrors) {
  EXPECT_EQ(run({"voxrig", "gen", "--count", "3"}), kExitUsage);  // no --out
  EXPECT_EQ(run({"voxrig", "gen", "--format", "obj", "--out", dir_}), kExitUsage);
  EXPECT_EQ(run({"voxrig", "gen", "--seed", "-1", "--out", dir_}), kExitUsage);
  EXPECT_EQ(run({"voxrig", "gen", "--negative", "--mix-negative", "2", "--out", dir_}), kExitUsage);
  fs::create_directories(dir_ + "/golden/sources");
  EXPECT_EQ(run({"voxrig", "gen", "--out", dir_ + "/golden"}), kExitUsage);
  EXPECT_FALSE(fs::exists(dir_ + "/golden/manifest.json"));
  EXPECT_EQ(run({"voxrig", "gen", "--list-mutations"}), kExitOk);
  EXPECT_NE(out_.find("rkc\trkc.attachment_index\trkc-strict=rkc.attachment_index\t"
                      "rkc-compat=rkc.attachment_index"),
            std::string::npos)
      << out_;
  EXPECT_EQ(run({"voxrig", "conform", "--generated", "5", "--golden", dir_}), kExitUsage);
  EXPECT_EQ(run({"voxrig", "conform", "--seed", "5"}), kExitUsage);
  EXPECT_EQ(run({"voxrig", "conform", "--generated", "0"}), kExitUsage);
  for (std::vector<std::string> bad : {std::vector<std::string>{"--profile", "vfp"},
                                       {"--codes", "medium"},
                                       {"--jobs", "0"},
                                       {"--timeout", "-1"},
                                       {"--update-expected"},
                                       {"stray"}}) {
    bad.insert(bad.begin(), {"voxrig", "conform"});
    EXPECT_EQ(run(bad), kExitUsage) << bad[2];
  }
}

TEST_F(GenCli, FailingGeneratedRunKeepsItsCorpusAndNamesTheFirstCase) {
  // A reader that rejects everything with a code no case expects.
  const std::string reader = dir_ + "/reader.sh";
  std::ofstream(reader) << "#!/bin/sh\necho '{\"error\": \"x.nope\"}'\nexit 1\n";
  ::chmod(reader.c_str(), 0755);
  ASSERT_EQ(run({"voxrig", "conform", "--generated", "8", "--seed", "77", "--format", "kfa",
                 "--reader", reader, "--jobs", "2"}),
            kExitFailed)
      << err_;
  EXPECT_NE(out_.find("generated 8 case(s), seed 77, format kfa"), std::string::npos) << out_;
  EXPECT_NE(out_.find("first failing generated case: gen/kfa/000000-valid (rkc-strict, dump)"),
            std::string::npos)
      << out_;
  EXPECT_NE(
      out_.find("regenerate it: voxrig gen --format kfa --seed 77 --index 0 --mix-negative 4"),
      std::string::npos)
      << out_;
  const size_t at = out_.find("generated corpus kept in ");
  ASSERT_NE(at, std::string::npos) << out_;
  const std::string kept = out_.substr(at + 25, out_.find(' ', at + 25) - (at + 25));
  EXPECT_TRUE(fs::exists(kept + "/manifest.json")) << kept;
  std::error_code ec;
  fs::remove_all(kept, ec);
}

}  // namespace
}  // namespace voxrig::cli
