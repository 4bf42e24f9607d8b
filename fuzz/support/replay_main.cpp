// fuzz/replay_main.cpp — the `main` of every fuzz target in builds without libFuzzer (the normal
// GCC build): runs LLVMFuzzerTestOneInput once over every file named on the command line or found
// (recursively, in sorted order) under a named directory, like zstd's regression_driver.c. This
// is what the `fuzz-regress` CTests run, so a target cannot silently stop compiling or start
// crashing on its corpus. Exit status: 0 when every input ran, 2 on a missing or unreadable
// path; a broken invariant aborts inside the target.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

// Structure-aware targets call libFuzzer's mutator from their custom mutator; the replay build
// never mutates, but the symbol must resolve. A plain byte flip keeps it usable by hand.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) {
  if (size > 0) data[size / 2] ^= 0x5A;
  return size <= max_size ? size : max_size;
}

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n  runs the fuzz target once per input\n",
                 argv[0]);
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file() && e.path().filename().string().front() != '.')
          found.push_back(e.path());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "%s: no such file or directory: %s\n", argv[0], argv[i]);
      return 2;
    }
  }
  size_t bytes = 0;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], f.c_str());
      return 2;
    }
    const std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    // A heap copy of exactly the input's size, so ASan sees any read past its end.
    std::unique_ptr<uint8_t[]> exact(new uint8_t[data.size() + (data.empty() ? 1 : 0)]);
    std::copy(data.begin(), data.end(), exact.get());
    LLVMFuzzerTestOneInput(exact.get(), data.size());
    bytes += data.size();
  }
  std::printf("%s: replayed %zu inputs (%zu bytes)\n", argv[0], files.size(), bytes);
  return 0;
}
