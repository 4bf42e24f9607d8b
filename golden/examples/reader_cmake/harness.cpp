// The same conformance check from C++ instead of a CTest command: a harness of your own links
// voxrig::conform and calls run_conformance() (voxrig/conform/run.h) with your reader.
//   example_harness GOLDEN_DIR READER
// runs READER over the vfp/section/ cases under both VFP profiles, writer checks included, and
// exits 0 when every counted check passed.
#include <iostream>

#include "voxrig/conform/run.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: example_harness GOLDEN_DIR READER\n";
    return 2;
  }
  voxrig::conform::RunOptions o;
  o.golden_dir = argv[1];
  o.reader_argv = {argv[2]};  // an absolute path; shell_command(CMD, {}) for a command line
  o.reader_name = argv[2];
  o.profiles = {"vfp-static", "vfp-rig"};
  o.filters = {"vfp/section/"};
  o.checks.writer = true;
  const voxrig::conform::RunResult r = voxrig::conform::run_conformance(o);
  if (r.status != voxrig::conform::RunStatus::Completed) {
    for (const auto& p : r.problems) std::cerr << p << "\n";
    return 3;
  }
  std::cout << voxrig::conform::summary_text(r.info, r.results, r.summary);
  return r.passed() ? 0 : 1;
}
