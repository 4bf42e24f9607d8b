// CLI plumbing: nothing here knows any format.
#include "cli_common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>

#include "voxrig/json_out.h"

namespace voxrig::cli {

std::optional<std::string> Args::get(std::string_view name) const {
  for (const auto& [k, v] : options)
    if (k == name) return v;
  return std::nullopt;
}

bool Args::has(std::string_view name) const { return get(name).has_value(); }

std::optional<Args> parse_args(int argc, char** argv, int first,
                               const std::vector<std::string_view>& value_options,
                               const std::vector<std::string_view>& flag_options) {
  Args args;
  for (int i = first; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      args.help = true;
      continue;
    }
    if (a.size() > 1 && a[0] == '-') {
      std::string name(a), value;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        args.options.emplace_back(name, value);
        continue;
      }
      bool takes_value = false, known = false;
      for (auto v : value_options)
        if (v == name) takes_value = known = true;
      for (auto f : flag_options)
        if (f == name) known = true;
      if (!known) {
        std::cerr << "voxrig: unknown option " << name << " (see --help)\n";
        return std::nullopt;
      }
      if (takes_value) {
        if (i + 1 >= argc) {
          std::cerr << "voxrig: option " << name << " needs a value\n";
          return std::nullopt;
        }
        value = argv[++i];
      }
      args.options.emplace_back(name, value);
      continue;
    }
    args.positional.emplace_back(a);
  }
  return args;
}

std::optional<std::vector<uint8_t>> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "voxrig: cannot read " << path << ": " << std::strerror(errno) << "\n";
    return std::nullopt;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) {
    std::cerr << "voxrig: cannot read " << path << ": read error\n";
    return std::nullopt;
  }
  return bytes;
}

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) {
    std::cerr << "voxrig: cannot write " << path << ": " << std::strerror(errno) << "\n";
    return false;
  }
  return true;
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

void print_text(std::string_view text) { std::cout << text; }

}  // namespace voxrig::cli
