// CLI plumbing: the option parser and the file reader/writer; nothing here knows any format.
#include "cli_common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

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

namespace {

// Why a path that opened is not something to read whole: nullptr for a regular file.
const char* not_regular(mode_t mode) {
  if (S_ISREG(mode)) return nullptr;
  if (S_ISDIR(mode)) return std::strerror(EISDIR);
  if (S_ISFIFO(mode)) return "is a FIFO, not a regular file (pipe it to stdin with -)";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is a device, not a regular file";
}

// Reads fd to EOF into `bytes`; false with errno set on a read error, or with errno 0 past
// max_bytes.
bool read_all(int fd, std::vector<uint8_t>& bytes, size_t max_bytes) {
  uint8_t chunk[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (static_cast<size_t>(n) > max_bytes - bytes.size()) {
      errno = 0;
      return false;
    }
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
}

}  // namespace

std::optional<std::vector<uint8_t>> read_file(const std::string& path, const ReadOptions& options) {
  auto fail = [&](const char* reason) -> std::optional<std::vector<uint8_t>> {
    if (!options.quiet) std::cerr << "voxrig: cannot read " << path << ": " << reason << "\n";
    return std::nullopt;
  };
  std::vector<uint8_t> bytes;
  if (path == "-") {  // stdin, whatever it is (a pipe, a file, a terminal)
    if (read_all(0, bytes, options.max_bytes)) return bytes;
    if (errno == 0) return std::nullopt;
    return fail(std::strerror(errno));
  }
  // O_NONBLOCK: opening a FIFO with no writer would block forever; fstat then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return fail(std::strerror(errno));
  struct stat st {};
  const char* why = ::fstat(fd, &st) != 0 ? std::strerror(errno) : not_regular(st.st_mode);
  bool ok = !why;
  if (ok) {
    ok = read_all(fd, bytes, options.max_bytes);
    why = ok || errno == 0 ? nullptr : std::strerror(errno);
  }
  ::close(fd);
  if (ok) return bytes;
  if (!why) return std::nullopt;  // over max_bytes: the caller reports it
  return fail(why);
}

bool write_file(const std::string& path, std::span<const uint8_t> bytes) {
  auto fail = [&](const std::string& reason) {
    std::cerr << "voxrig: cannot write " << path << ": " << reason << "\n";
    return false;
  };
  auto write_all = [&](int fd) {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  };
  if (path == "-") {
    std::cout.flush();  // keep anything already printed in order
    return write_all(1) ? true : fail(std::strerror(errno));
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return fail(std::strerror(EISDIR));
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    return fail("folder " + parent.string() + " does not exist");
  // O_NONBLOCK: a FIFO with no reader fails with ENXIO instead of blocking the open.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) {
    if (errno == ENXIO) return fail("is a FIFO with no reader");
    return fail(std::strerror(errno));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  bool ok = write_all(fd);
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok) return true;
  if (regular) ::unlink(path.c_str());  // no half-written output survives a failure
  return fail(std::strerror(err));
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

}  // namespace voxrig::cli
