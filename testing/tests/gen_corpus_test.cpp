// voxrig/testing/gen_corpus.h: a generated corpus is complete and loads like the golden one
// (conform's corpus check), the same options give the same bytes, one index of a run regenerates
// alone byte for byte, and another seed gives other files.
#include "voxrig/testing/gen_corpus.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "voxrig/conform/corpus.h"

namespace voxrig::gen {
namespace {

namespace fs = std::filesystem;

std::map<std::string, std::string> tree(const std::string& root) {
  std::map<std::string, std::string> r;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      r[fs::relative(e.path(), root).generic_string()] = {std::istreambuf_iterator<char>(in), {}};
    }
  return r;
}

TEST(GenCorpus, WritesALoadableReproducibleCorpus) {
  std::string dir = ::testing::TempDir() + "voxrig-gen-corpus-XXXXXX";
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  GenCorpusOptions o;
  o.formats = {GenFormat::Vfp, GenFormat::Rkc, GenFormat::Kv6, GenFormat::Rvc, GenFormat::Kfa};
  o.all_formats = true;
  o.count = 30;
  o.seed = 9;
  o.negative_every = 3;
  const GenCorpusResult ra = write_generated_corpus(dir + "/a", o);
  ASSERT_TRUE(ra.write_error.empty() && ra.mismatches.empty()) << ra.write_error;
  write_generated_corpus(dir + "/b", o);
  const auto ta = tree(dir + "/a");
  EXPECT_EQ(ta, tree(dir + "/b"));
  conform::Corpus corpus;
  std::vector<std::string> problems;
  ASSERT_EQ(conform::load_corpus(dir + "/a", corpus, problems), conform::CorpusStatus::Ok);
  ASSERT_EQ(corpus.manifest.cases.size(), 30u);
  // A generated corpus names the spec its verdicts follow, not a golden corpus version.
  EXPECT_EQ(corpus.manifest.spec_version, "1.0");
  EXPECT_EQ(corpus.manifest.corpus_version, "");
  size_t negative = 0;
  for (const auto& c : corpus.manifest.cases) {
    negative += c.id.find("-valid") == std::string::npos;
    ASSERT_EQ(c.tags.size(), 2u);
    EXPECT_EQ(c.tags[0], "generated");
  }
  EXPECT_EQ(negative, 10u);  // indices 2, 5, ..., 29

  // --index regenerates one case of the run, byte for byte.
  GenCorpusOptions one = o;
  one.index = 17;
  const GenCorpusResult r1 = write_generated_corpus(dir + "/one", one);
  EXPECT_EQ(r1.ids[17], ra.ids[17]);
  size_t files = 0;
  for (const auto& [rel, bytes] : tree(dir + "/one"))
    if (rel.rfind("files/", 0) == 0) {
      ++files;
      EXPECT_EQ(ta.at(rel), bytes) << rel;
    }
  EXPECT_EQ(files, 1u);

  // A different seed gives different files.
  o.seed = 10;
  write_generated_corpus(dir + "/c", o);
  EXPECT_NE(tree(dir + "/c").at("manifest.json"), ta.at("manifest.json"));
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace voxrig::gen
