// CLI plumbing: the option parser and the file reader/writer; nothing here knows any format.
#include "cli_common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "voxrig/conform/file_input.h"
#include "voxrig/json_out.h"

namespace voxrig::cli {

std::optional<std::string> Args::get(std::string_view name) const {
  for (const auto& [k, v] : options)
    if (k == name) return v;
  return std::nullopt;
}

std::optional<std::string> Args::last(std::string_view name) const {
  std::optional<std::string> v;
  for (const auto& [k, value] : options)
    if (k == name) v = value;
  return v;
}

bool Args::has(std::string_view name) const { return get(name).has_value(); }

std::string join_choices(std::span<const std::string_view> choices) {
  std::string out;
  for (std::string_view c : choices) out += (out.empty() ? "" : ", ") + std::string(c);
  return out;
}

namespace {

// True when `value` (every comma-separated item of it, for a list option) is one of the
// option's choices; otherwise prints the one usage line naming the option and the choices.
bool check_choices(const OptionSpec& spec, std::string_view value) {
  if (spec.choices.empty()) return true;
  while (true) {
    const size_t comma = spec.list ? value.find(',') : std::string_view::npos;
    const std::string_view item = value.substr(0, comma);
    bool ok = false;
    for (std::string_view c : spec.choices) ok |= c == item;
    if (!ok) {
      std::cerr << "voxrig: " << spec.name << ": '" << item << "' is not one of "
                << join_choices(spec.choices) << "\n";
      return false;
    }
    if (comma == std::string_view::npos) return true;
    value = value.substr(comma + 1);
  }
}

const OptionSpec* find_spec(std::span<const OptionSpec> options, std::string_view name) {
  for (const OptionSpec& o : options)
    if (o.name == name) return &o;
  return nullptr;
}

}  // namespace

std::optional<Args> parse_args(int argc, char** argv, int first,
                               std::span<const OptionSpec> options) {
  Args args;
  for (int i = first; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      args.help = true;
      continue;
    }
    if (a.size() <= 1 || a[0] != '-') {  // "-" is a positional: stdin (or stdout for -o)
      args.positional.emplace_back(a);
      continue;
    }
    std::string name(a), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      if (const OptionSpec* spec = find_spec(options, name); spec && !check_choices(*spec, value))
        return std::nullopt;
      args.options.emplace_back(std::move(name), std::move(value));
      continue;
    }
    const OptionSpec* spec = find_spec(options, name);
    if (!spec) {
      std::cerr << "voxrig: unknown option " << name << " (see --help)\n";
      return std::nullopt;
    }
    if (spec->takes_value) {
      if (i + 1 >= argc) {
        std::cerr << "voxrig: option " << name << " needs a value";
        if (!spec->choices.empty()) std::cerr << " (one of " << join_choices(spec->choices) << ")";
        std::cerr << "\n";
        return std::nullopt;
      }
      value = argv[++i];
      if (!check_choices(*spec, value)) return std::nullopt;
    }
    args.options.emplace_back(std::move(name), std::move(value));
  }
  return args;
}

std::optional<std::vector<uint8_t>> read_file(const std::string& path, const ReadOptions& options) {
  std::string why;
  auto bytes = path == "-" ? conform::read_stdin(options.max_bytes, &why)
                           : conform::read_regular_file(path, options.max_bytes, &why);
  if (!bytes && !options.quiet) std::cerr << "voxrig: cannot read " << path << ": " << why << "\n";
  return bytes;
}

OutputStream::~OutputStream() {
  if (opened_ && !finished_) {
    if (fd_ > 1) ::close(fd_);
    if (regular_) ::unlink(path_.c_str());  // no half-written output survives
  }
}

bool OutputStream::fail(const std::string& reason) {
  if (!failed_) std::cerr << "voxrig: cannot write " << path_ << ": " << reason << "\n";
  failed_ = true;
  if (fd_ > 1) ::close(fd_);
  fd_ = -1;
  if (regular_) ::unlink(path_.c_str());
  return false;
}

bool OutputStream::open() {
  opened_ = true;
  if (path_ == "-") return true;  // through std::cout, which `voxrig serve` captures
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return fail(std::strerror(EISDIR));
  const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    return fail("folder " + parent.string() + " does not exist");
  // O_NONBLOCK: a FIFO with no reader fails with ENXIO instead of blocking the open.
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd_ < 0) return fail(errno == ENXIO ? "is a FIFO with no reader" : std::strerror(errno));
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  regular_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
  return true;
}

bool OutputStream::write(std::string_view piece) {
  if (failed_ || (!opened_ && !open())) return false;
  if (path_ == "-") {
    std::cout.write(piece.data(), std::streamsize(piece.size()));
    return std::cout ? true : fail(std::strerror(EIO));
  }
  size_t done = 0;
  while (done < piece.size()) {
    const ssize_t n = ::write(fd_, piece.data() + done, piece.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(std::strerror(n < 0 ? errno : EIO));
    done += static_cast<size_t>(n);
  }
  return true;
}

bool OutputStream::finish() {
  if (failed_ || (!opened_ && !open())) return false;
  finished_ = true;
  if (path_ == "-") return std::cout.flush() ? true : fail(std::strerror(EIO));
  if (fd_ > 1 && ::close(fd_) != 0) {
    const int err = errno;
    fd_ = -1;
    finished_ = false;
    return fail(std::strerror(err));
  }
  fd_ = -1;
  return true;
}

bool write_file(const std::string& path, std::span<const uint8_t> bytes) {
  OutputStream out(path);
  return out.write({reinterpret_cast<const char*>(bytes.data()), bytes.size()}) && out.finish();
}

bool check_writable(const std::string& path) {
  auto fail = [&](const std::string& reason) {
    std::cerr << "voxrig: cannot write " << path << ": " << reason << "\n";
    return false;
  };
  if (path == "-") return true;
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return fail(std::strerror(EISDIR));
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    return fail("folder " + parent.string() + " does not exist");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) return fail(errno == ENXIO ? "is a FIFO with no reader" : std::strerror(errno));
  ::close(fd);
  if (!exists) ::unlink(path.c_str());
  return true;
}

bool write_file(const std::string& path, std::string_view text) {
  return write_file(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::optional<Profile> profile_option(const Args& args, bool& bad) {
  auto p = args.get("--profile");
  if (!p) return std::nullopt;
  auto profile = profile_from_string(*p);
  if (!profile) {
    std::cerr << "voxrig: unknown profile '" << *p
              << "' (expected vfp-static, vfp-rig, rkc-strict or rkc-compat)\n";
    bad = true;
  }
  return profile;
}

std::string error_json(const Error& e) {
  return "{\"error\": " + json_quote(to_string(e.code)) +
         ", \"offset\": " + std::to_string(e.offset) + ", \"path\": " + json_quote(e.path) + "}";
}

void print_error_json(const Error& e) { std::cout << error_json(e) << "\n"; }

int report_out_of_memory() {
  // Literals only: the allocator has just failed, and may again.
  std::fputs("{\"error\": \"internal.out_of_memory\", \"offset\": 0, \"path\": \"\"}\n", stdout);
  std::fputs("voxrig: out of memory\n", stderr);
  return kExitReject;
}

uint64_t max_output_option(const Args& args, bool& bad) {
  const auto v = args.last("--max-output");
  if (!v) return Limits{}.output_bytes;
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
  if (ec != std::errc() || end != v->data() + v->size()) {
    std::cerr << "voxrig: --max-output: '" << *v << "' is not a whole number of bytes\n";
    bad = true;
  }
  return n;
}

}  // namespace voxrig::cli
