// CLI plumbing: the option parser and the file reader/writer; nothing here knows any format.
#include "cli_common.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
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

std::optional<Args> parse_args(int argc, char** argv, int first,
                               std::span<const OptionSpec> options) {
  Args args;
  for (int i = first; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      args.help = true;
      continue;
    }
    if (a.size() <= 1 || a[0] != '-') {
      args.positional.emplace_back(a);
      continue;
    }
    std::string name(a), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      args.options.emplace_back(std::move(name), std::move(value));
      continue;
    }
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& o : options)
      if (o.name == name) spec = &o;
    if (!spec) {
      std::cerr << "voxrig: unknown option " << name << " (see --help)\n";
      return std::nullopt;
    }
    if (spec->takes_value) {
      if (i + 1 >= argc) {
        std::cerr << "voxrig: option " << name << " needs a value\n";
        return std::nullopt;
      }
      value = argv[++i];
    }
    args.options.emplace_back(std::move(name), std::move(value));
  }
  return args;
}

std::optional<std::vector<uint8_t>> read_file(const std::string& path, const ReadOptions& options) {
  auto fail = [&](const char* reason) -> std::optional<std::vector<uint8_t>> {
    if (!options.quiet) std::cerr << "voxrig: cannot read " << path << ": " << reason << "\n";
    return std::nullopt;
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(std::strerror(errno));
  // The stream would open a directory and then throw on the first read.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail(std::strerror(EISDIR));
  std::vector<uint8_t> bytes;
  try {
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
      const size_t n = static_cast<size_t>(in.gcount());
      if (n > options.max_bytes - bytes.size()) return std::nullopt;
      bytes.insert(bytes.end(), chunk, chunk + n);
    }
  } catch (const std::ios_base::failure&) {
    return fail("read error");
  }
  if (in.bad()) return fail("read error");
  return bytes;
}

bool write_file(const std::string& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) {
    std::cerr << "voxrig: cannot write " << path << ": " << std::strerror(errno) << "\n";
    return false;
  }
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
