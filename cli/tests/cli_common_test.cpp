// The CLI's shared plumbing: the option parser every command goes through, the one file reader
// and writer, and the command table.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_test_support.h"
#include "commands.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kPolicies[] = {"step", "linear", "slerp"};
constexpr OptionSpec kSpec[] = {{"--profile", true, kProfileChoices, true},
                                {"-o", true},
                                {"--json", false},
                                {"--policy", true, kPolicies}};

// parse_args of `args` (after "voxrig cmd"); `err` receives what it printed.
std::optional<Args> parse(std::vector<std::string> args, std::string& err) {
  args.insert(args.begin(), {"voxrig", "cmd"});
  std::vector<char*> raw;
  for (auto& a : args) raw.push_back(a.data());
  testing::internal::CaptureStderr();
  auto r = parse_args(static_cast<int>(raw.size()), raw.data(), 2, kSpec);
  err = testing::internal::GetCapturedStderr();
  return r;
}

TEST(ParseArgs, KeepsOrderAndRepeatsAndTellsFirstFromLast) {
  std::string err;
  auto a = parse(
      {"x", "--profile", "vfp-rig", "--json", "-o", "out", "--profile", "rkc-strict", "-"}, err);
  ASSERT_TRUE(a);
  EXPECT_EQ(err, "");
  EXPECT_EQ(a->positional, (std::vector<std::string>{"x", "-"}));  // a lone '-' is positional
  EXPECT_EQ(a->get("--profile"), "vfp-rig");
  EXPECT_EQ(a->last("--profile"), "rkc-strict");
  EXPECT_TRUE(a->has("--json"));
  EXPECT_EQ(a->get("--json"), "");
  EXPECT_FALSE(a->has("--step"));
  EXPECT_FALSE(a->help);
}

TEST(ParseArgs, HelpAndEqualsForms) {
  std::string err;
  auto a = parse({"-h", "--profile=vfp-static", "--anything=1"}, err);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->help);
  EXPECT_EQ(a->get("--profile"), "vfp-static");
  EXPECT_EQ(a->get("--anything"), "1");  // NAME=VALUE is taken as given, as it always was
}

TEST(ParseArgs, UnknownOptionAndMissingValueAreOneLine) {
  std::string err;
  EXPECT_FALSE(parse({"--bogus"}, err));
  EXPECT_EQ(err, "voxrig: unknown option --bogus (see --help)\n");
  EXPECT_FALSE(parse({"x", "-o"}, err));
  EXPECT_EQ(err, "voxrig: option -o needs a value\n");
  EXPECT_FALSE(parse({"--json", "--help", "-x"}, err));  // parse errors come before --help
}

TEST(ParseArgs, EnumOptionsNameTheOptionAndTheChoices) {
  std::string err;
  EXPECT_FALSE(parse({"--policy", "cubic"}, err));
  EXPECT_EQ(err, "voxrig: --policy: 'cubic' is not one of step, linear, slerp\n");
  EXPECT_FALSE(parse({"--policy=cubic"}, err));  // the NAME=VALUE form is checked too
  EXPECT_EQ(err, "voxrig: --policy: 'cubic' is not one of step, linear, slerp\n");
  EXPECT_FALSE(parse({"--policy"}, err));
  EXPECT_EQ(err, "voxrig: option --policy needs a value (one of step, linear, slerp)\n");
  // A list option checks every item.
  EXPECT_TRUE(parse({"--profile", "vfp-rig,rkc-compat"}, err));
  EXPECT_FALSE(parse({"--profile", "vfp-rig,rkc"}, err));
  EXPECT_EQ(err,
            "voxrig: --profile: 'rkc' is not one of vfp-static, vfp-rig, rkc-strict, "
            "rkc-compat\n");
}

using Files = ScratchDirTest;

TEST_F(Files, WriteThenReadRoundTrips) {
  const std::string p = dir_ + "/a.bin";
  const std::vector<uint8_t> bytes(200000, 0xab);  // more than one read chunk
  ASSERT_TRUE(write_file(p, bytes));
  EXPECT_EQ(read_file(p), bytes);
  ASSERT_TRUE(write_file(p, std::string_view("text\n")));
  auto text = read_file(p);
  ASSERT_TRUE(text);
  EXPECT_EQ(as_text(*text), "text\n");
}

TEST_F(Files, FailuresSayWhyUnlessQuiet) {
  testing::internal::CaptureStderr();
  EXPECT_FALSE(read_file(dir_ + "/missing"));
  EXPECT_FALSE(read_file(dir_));  // a directory is an error, not a crash or an empty file
  EXPECT_FALSE(write_file(dir_ + "/no/such/dir", std::string_view("x")));
  EXPECT_FALSE(read_file(dir_ + "/missing", {.quiet = true}));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "voxrig: cannot read " + dir_ + "/missing: No such file or directory\n" +
                "voxrig: cannot read " + dir_ + ": Is a directory\n" + "voxrig: cannot write " +
                dir_ + "/no/such/dir: folder " + dir_ + "/no/such does not exist\n");
}

TEST_F(Files, FifosNeverBlockAndFullDisksFail) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(read_file(fifo));  // no writer: a blocking open would hang here
  EXPECT_FALSE(write_file(fifo, std::string_view("x")));         // no reader: likewise
  EXPECT_FALSE(write_file("/dev/full", std::string_view("x")));  // buffered writes fail late
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "voxrig: cannot read " + fifo +
                ": is a FIFO, not a regular file (pipe it to stdin with -)\n" +
                "voxrig: cannot write " + fifo + ": is a FIFO with no reader\n" +
                "voxrig: cannot write /dev/full: No space left on device\n");
}

TEST_F(Files, CheckWritableCreatesNothing) {
  const std::string p = dir_ + "/new.json";
  EXPECT_TRUE(check_writable(p));
  EXPECT_FALSE(std::filesystem::exists(p));
  testing::internal::CaptureStderr();
  EXPECT_FALSE(check_writable(dir_ + "/no/r.json"));
  EXPECT_FALSE(check_writable(dir_));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "voxrig: cannot write " + dir_ + "/no/r.json: folder " + dir_ + "/no does not exist\n" +
                "voxrig: cannot write " + dir_ + ": Is a directory\n");
}

TEST_F(Files, MaxBytesIsACap) {
  const std::string p = dir_ + "/b.bin";
  ASSERT_TRUE(write_file(p, std::vector<uint8_t>(100, 1)));
  EXPECT_TRUE(read_file(p, {.quiet = true, .max_bytes = 100}));
  EXPECT_FALSE(read_file(p, {.quiet = true, .max_bytes = 99}));
  testing::internal::CaptureStderr();
  EXPECT_FALSE(read_file(p, {.max_bytes = 99}));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "voxrig: cannot read " + p + ": over the input limit of 99 bytes\n");
  EXPECT_EQ(ReadOptions{}.max_bytes, kMaxInputBytes);  // files and stdin: one default
}

TEST_F(Files, AnOutputStreamOpensAtItsFirstPieceAndLeavesNoHalfFile) {
  const std::string p = dir_ + "/s.obj";
  ASSERT_TRUE(write_file(p, std::string_view("old")));
  { OutputStream refused(p); }  // refused before writing: the old file stays
  EXPECT_EQ(std::filesystem::file_size(p), 3u);
  {
    OutputStream broken(p);
    ASSERT_TRUE(broken.write("half"));
  }  // never finished: removed
  EXPECT_FALSE(std::filesystem::exists(p));
  OutputStream whole(p);
  const OutputSink sink = whole.sink();
  sink("ab");
  sink("cd");
  ASSERT_TRUE(whole.finish());
  EXPECT_EQ(read_file(p).value(), (std::vector<uint8_t>{'a', 'b', 'c', 'd'}));
  OutputStream empty(dir_ + "/empty.json");
  ASSERT_TRUE(empty.finish());  // an empty output is still a file
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/empty.json"));
}

TEST(MaxOutput, DefaultsToTheLimitAndTakesWholeBytes) {
  auto run = [](std::vector<std::string> args, bool& bad) {
    Args a;
    for (size_t i = 0; i + 1 < args.size(); i += 2) a.options.emplace_back(args[i], args[i + 1]);
    testing::internal::CaptureStderr();
    const uint64_t v = max_output_option(a, bad);
    testing::internal::GetCapturedStderr();
    return v;
  };
  bool bad = false;
  EXPECT_EQ(run({}, bad), Limits{}.output_bytes);
  EXPECT_EQ(run({"--max-output", "1000"}, bad), 1000u);
  EXPECT_FALSE(bad);
  run({"--max-output", "1k"}, bad);
  EXPECT_TRUE(bad);
}

TEST(CommandTable, NamesAreUniqueAndEachUsageNamesItsCommand) {
  std::set<std::string_view> names;
  for (const Command* c : commands()) {
    EXPECT_TRUE(names.insert(c->name).second) << c->name;
    EXPECT_EQ(find_command(c->name), c);
    EXPECT_TRUE(c->usage.starts_with("usage: voxrig " + std::string(c->name))) << c->name;
    EXPECT_NE(c->run, nullptr);
  }
  EXPECT_EQ(names.size(), 18u);
  EXPECT_EQ(find_command("nosuch"), nullptr);
}

}  // namespace
}  // namespace voxrig::cli
