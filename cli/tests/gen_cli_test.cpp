// voxrig gen and voxrig conform --generated, end to end in-process: the corpus is complete and
// loads like the golden one, runs are reproducible (also case by case with --index), and a
// failing generated run keeps its corpus and names the first failing case with its command.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_test_support.h"
#include "commands.h"
#include "voxrig/conform/corpus.h"

namespace voxrig::cli {
namespace {

namespace fs = std::filesystem;

class GenCli : public ScratchDirTest {
 protected:
  int run(std::vector<std::string> argv) { return run_captured(std::move(argv), out_, err_); }
  static std::map<std::string, std::string> tree(const std::string& root) {
    std::map<std::string, std::string> r;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file()) {
        std::ifstream in(e.path(), std::ios::binary);
        r[fs::relative(e.path(), root).generic_string()] = {std::istreambuf_iterator<char>(in), {}};
      }
    return r;
  }
  std::string out_, err_;
};

TEST_F(GenCli, WritesALoadableReproducibleCorpus) {
  const std::string a = dir_ + "/a", b = dir_ + "/b";
  ASSERT_EQ(
      run({"voxrig", "gen", "--count", "30", "--seed", "9", "--mix-negative", "3", "--out", a}),
      kExitOk)
      << err_;
  EXPECT_NE(out_.find("wrote 30 case(s)"), std::string::npos) << out_;
  ASSERT_EQ(
      run({"voxrig", "gen", "--count", "30", "--seed", "9", "--mix-negative", "3", "--out", b}),
      kExitOk)
      << err_;
  const auto ta = tree(a), tb = tree(b);
  EXPECT_EQ(ta, tb);
  conform::Corpus corpus;
  std::vector<std::string> problems;
  ASSERT_EQ(conform::load_corpus(a, corpus, problems), conform::CorpusStatus::Ok);
  ASSERT_EQ(corpus.manifest.cases.size(), 30u);
  size_t negative = 0;
  for (const auto& c : corpus.manifest.cases) {
    negative += c.id.find("-valid") == std::string::npos;
    ASSERT_EQ(c.tags.size(), 2u);
    EXPECT_EQ(c.tags[0], "generated");
  }
  EXPECT_EQ(negative, 10u);  // indices 2, 5, ..., 29

  // --index regenerates one case of the run, byte for byte.
  const std::string one = dir_ + "/one";
  ASSERT_EQ(
      run({"voxrig", "gen", "--seed", "9", "--mix-negative", "3", "--index", "17", "--out", one}),
      kExitOk)
      << err_;
  const auto t1 = tree(one);
  size_t files = 0;
  for (const auto& [rel, bytes] : t1)
    if (rel.rfind("files/", 0) == 0) {
      ++files;
      EXPECT_EQ(ta.at(rel), bytes) << rel;
    }
  EXPECT_EQ(files, 1u);

  // A different seed gives different files.
  ASSERT_EQ(
      run({"voxrig", "gen", "--count", "30", "--seed", "10", "--mix-negative", "3", "--out", b}),
      kExitOk);
  EXPECT_NE(tree(b).at("manifest.json"), ta.at("manifest.json"));
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
