// voxrig golden regen | check | fields — the golden corpus generator (golden/builder's
// build_corpus), its drift check and the field lister for case authors.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "golden_corpus.h"
#include "voxrig/any_format.h"
#include "voxrig/testing/layout.h"

namespace voxrig::cli {
namespace {

namespace fs = std::filesystem;

// Prints every source error and mismatch; kExitFailed when there is any, else kExitOk.
int report(const golden::BuiltCorpus& g) {
  for (const auto& e : g.errors) std::cerr << "voxrig golden: source error: " << e << "\n";
  for (const auto& m : g.mismatches) std::cerr << "voxrig golden: MISMATCH " << m << "\n";
  if (g.errors.empty() && g.mismatches.empty()) return kExitOk;
  std::cerr << "voxrig golden: " << g.errors.size() << " source error(s), " << g.mismatches.size()
            << " mismatch(es) between declared and reference outcomes\n";
  return kExitFailed;
}

int regen(const std::string& golden_dir, const std::string& out_dir, bool force) {
  const golden::BuiltCorpus g = golden::build_corpus(golden_dir);
  const int rc = report(g);
  if (rc != kExitOk && !force) {
    std::cerr << "voxrig golden: nothing written (use --force to write anyway)\n";
    return rc;
  }
  if (const std::string error = golden::write_corpus(out_dir, g); !error.empty()) {
    std::cerr << "voxrig: " << error << "\n";
    return kExitIo;
  }
  std::cout << "voxrig golden: wrote " << g.files.size() << " files to " << out_dir << "\n";
  for (const auto& [format, profiles] : g.counts)
    for (const auto& [profile, c] : profiles)
      std::cout << "  " << format << " " << profile << ": " << c.first << " accept, " << c.second
                << " reject\n";
  return rc;
}

// --keep: the regenerated tree, written into a temporary directory for a look.
int keep_tree(const golden::BuiltCorpus& g) {
  std::string tmpl = (fs::temp_directory_path() / "voxrig-golden-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    std::cerr << "voxrig golden: cannot create a temporary directory\n";
    return kExitIo;
  }
  if (const std::string error = golden::write_corpus(tmpl, g); !error.empty()) {
    std::cerr << "voxrig: " << error << "\n";
    return kExitIo;
  }
  std::cout << "voxrig golden: regenerated tree kept in " << tmpl << "\n";
  return kExitOk;
}

int check(const std::string& golden_dir, bool keep) {
  if (!fs::is_regular_file(fs::path(golden_dir) / "manifest.json")) {
    std::cerr << "voxrig golden: cannot read " << golden_dir << "/manifest.json\n";
    return kExitIo;
  }
  const golden::BuiltCorpus g = golden::build_corpus(golden_dir);
  int rc = report(g);
  if (keep && keep_tree(g) != kExitOk) return kExitIo;
  size_t committed = 0;
  const auto problems = golden::corpus_drift(golden_dir, g, committed);
  for (const auto& p : problems) std::cerr << "voxrig golden: DRIFT " << p << "\n";
  if (!problems.empty()) {
    std::cerr << "voxrig golden: " << problems.size()
              << " difference(s); run `voxrig golden regen` and commit golden/\n";
    rc = kExitFailed;
  }
  if (rc == kExitOk) std::cout << "voxrig golden: check passed (" << committed << " files identical)\n";
  return rc;
}

constexpr std::string_view kUsage =
    "usage: voxrig golden regen [--golden DIR] [--out DIR] [--force]\n"
    "       voxrig golden check [--golden DIR] [--keep]\n"
    "       voxrig golden fields FILE\n"
    "regen: builds every case of DIR/sources (default DIR: ./golden), checks that the\n"
    "  reference's verdict and error code equal the declared ones under every profile, and\n"
    "  writes files/, dumps/, expected/ and manifest.json under --out (default DIR).\n"
    "  Any disagreement is listed and fails with exit 4 (nothing written without --force).\n"
    "check: verifies the manifest hashes, regenerates into a temporary directory and fails\n"
    "  (exit 4) on any byte difference from the committed tree (--keep keeps the temp dir).\n"
    "fields FILE: prints every field path the mutation locator knows in FILE (offset, size),\n"
    "  for writing case sources. A file of unknown format is refused (exit 1).\n"
    "Exit: 0 ok, 1 fields: the file cannot be walked, 2 usage, 3 I/O, 4 regen/check differences.\n";
constexpr OptionSpec kOptions[] = {
    {"--golden", true}, {"--out", true}, {"--force", false}, {"--keep", false}};

int run(const Args& args) {
  if (args.positional.size() == 2 && args.positional[0] == "fields") {
    auto bytes = read_file(args.positional[1]);
    if (!bytes) return kExitIo;
    const testing::Layout l = testing::layout_of(*bytes);
    if (detect_format(*bytes) == Format::Unknown || l.fields.size() <= 1) {  // only "end"
      std::cerr << "voxrig: golden fields: cannot walk " << args.positional[1]
                << ": its magic is none of VFP, RKCH, Kvxl, RVCL, Kwlk\n";
      return kExitReject;
    }
    for (const auto& f : l.fields)
      std::cout << f.offset << "\t" << f.size << "\t" << f.path << "\n";
    for (const auto& r : l.regions)
      std::cout << "region " << r.length_path << " @" << r.length_offset << " counts ["
                << r.content_start << ", " << r.content_end << ")\n";
    return kExitOk;
  }
  if (args.positional.size() != 1 ||
      (args.positional[0] != "regen" && args.positional[0] != "check")) {
    std::cerr << "voxrig: golden needs 'regen' or 'check' (see --help)\n";
    return kExitUsage;
  }
  const std::string golden_dir = args.get("--golden").value_or("golden");
  if (!fs::is_directory(fs::path(golden_dir) / "sources")) {
    std::cerr << "voxrig: cannot read " << golden_dir
              << ": no sources/ folder there (--golden takes the golden directory)\n";
    return kExitIo;
  }
  if (args.positional[0] == "regen")
    return regen(golden_dir, args.get("--out").value_or(golden_dir), args.has("--force"));
  return check(golden_dir, args.has("--keep"));
}

}  // namespace

extern const Command kGolden{"golden", "regenerate (regen) or verify (check) the golden corpus",
                             kUsage, kOptions, run};

}  // namespace voxrig::cli
