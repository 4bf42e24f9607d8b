// fuzz/replay_main.cpp — the `main` of every fuzz target in builds without libFuzzer (the normal
// GCC build): runs LLVMFuzzerTestOneInput once over every file named on the command line or found
// (recursively, in sorted order) under a named directory, like zstd's regression_driver.c. This
// is what the `fuzz-regress` CTests run, so a target cannot silently stop compiling or start
// crashing on its corpus. Exit status: 0 when every input ran, 2 on a missing or unreadable
// path; a broken invariant aborts inside the target.
//
// libFuzzer's per-input limits are emulated, so the CTests (scripts/fuzz.sh replay, which passes
// those of fuzz/<target>.options) hold the GCC build to them as well: -timeout=S (an input running
// over S seconds: SIGALRM, exit 70 as libFuzzer's timeout), -malloc_limit_mb=M (one operator new
// of more than M MiB — zlib allocates through it too — exit 71), -rss_limit_mb=R (peak RSS over
// R MiB after an input, exit 71). Other -flag=value arguments (-runs=0, ...) are ignored.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
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

namespace {

const char* g_input = "(none)";  // the input being run, for the limit messages
unsigned g_timeout_s = 0;
size_t g_malloc_limit = 0;  // bytes; 0 = none
uint64_t g_rss_limit_mb = 0;

[[noreturn]] void limit_exceeded(const char* what, int code) {
  std::fprintf(stderr, "==voxrig-replay== ERROR: %s on %s\n", what, g_input);
  std::fflush(stderr);
  _exit(code);
}

void on_alarm(int) {
  static const char kMsg[] = "==voxrig-replay== ERROR: timeout (-timeout)\n";
  (void)!write(2, kMsg, sizeof kMsg - 1);
  (void)!write(2, g_input, std::strlen(g_input));
  (void)!write(2, "\n", 1);
  _exit(70);
}

void* checked_new(size_t n) {
  if (g_malloc_limit != 0 && n > g_malloc_limit) {
    char what[96];
    std::snprintf(what, sizeof what, "out-of-memory (malloc(%zu) over -malloc_limit_mb)", n);
    limit_exceeded(what, 71);
  }
  return std::malloc(n == 0 ? 1 : n);
}

// Out of line so that GCC does not pair the replaced delete with a visible malloc.
__attribute__((noinline)) void release(void* p) noexcept { std::free(p); }

// Accepts libFuzzer's "-name=value"; true when it was one (known or ignored).
bool limit_flag(const std::string& a) {
  if (a.size() < 2 || a[0] != '-' || a.find('=') == std::string::npos) return false;
  const std::string name = a.substr(1, a.find('=') - 1);
  const uint64_t v = std::strtoull(a.c_str() + a.find('=') + 1, nullptr, 10);
  if (name == "timeout") g_timeout_s = static_cast<unsigned>(v);
  if (name == "malloc_limit_mb") g_malloc_limit = static_cast<size_t>(v) << 20;
  if (name == "rss_limit_mb") g_rss_limit_mb = v;
  return true;
}

}  // namespace

// The throwing forms only: what the library and the targets use (aligned / nothrow forms keep
// libstdc++'s, which call malloc and are not limited).
void* operator new(size_t n) {
  if (void* p = checked_new(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) {
  if (void* p = checked_new(n)) return p;
  throw std::bad_alloc();
}
void* operator new(size_t n, const std::nothrow_t&) noexcept { return checked_new(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return checked_new(n); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, size_t) noexcept { release(p); }
void operator delete[](void* p, size_t) noexcept { release(p); }

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int kept = 1;
  for (int i = 1; i < argc; ++i)
    if (!limit_flag(argv[i])) argv[kept++] = argv[i];
  argc = kept;
  signal(SIGALRM, on_alarm);
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
    g_input = f.c_str();
    alarm(g_timeout_s);
    LLVMFuzzerTestOneInput(exact.get(), data.size());
    alarm(0);
    rusage ru{};
    if (g_rss_limit_mb != 0 && getrusage(RUSAGE_SELF, &ru) == 0 &&
        static_cast<uint64_t>(ru.ru_maxrss) > g_rss_limit_mb * 1024)
      limit_exceeded("out-of-memory (peak RSS over -rss_limit_mb)", 71);
    bytes += data.size();
  }
  std::printf("%s: replayed %zu inputs (%zu bytes)\n", argv[0], files.size(), bytes);
  return 0;
}
