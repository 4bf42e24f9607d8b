// A complete reader for the voxrig reader protocol (golden/README.md), built on voxrig::codec:
//   example_reader dump --profile P FILE            exit 0 + canonical JSON dump, or
//                                                   exit 1 + {"error": "<code>"}
//   example_reader roundtrip --profile P IN OUT     exit 0 + OUT written, or exit 1 + error
//   example_reader canonicalize --profile P IN OUT  same, for the canonical form
// Anything else is a usage error (exit 2); an unreadable file is exit 3 (a crash verdict).
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "voxrig/any_format.h"
#include "voxrig/error.h"
#include "voxrig/profile.h"

namespace {

bool read(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad() && in.is_open();
}

int reject(const voxrig::Error& e) {
  std::cout << "{\"error\": \"" << voxrig::to_string(e.code) << "\"}\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const bool dump = args.size() == 4 && args[0] == "dump";
  const bool rewrite = args.size() == 5 && (args[0] == "roundtrip" || args[0] == "canonicalize");
  if ((!dump && !rewrite) || args[1] != "--profile") {
    std::cerr << "usage: example_reader dump|roundtrip|canonicalize --profile P FILE [OUT]\n";
    return 2;
  }
  const auto profile = voxrig::profile_from_string(args[2]);
  if (!profile) {
    std::cerr << "unknown profile " << args[2] << "\n";
    return 2;
  }
  std::vector<uint8_t> in;
  if (!read(args[3], in)) {
    std::cerr << "cannot read " << args[3] << "\n";
    return 3;
  }
  const voxrig::Limits limits;
  if (dump) {
    auto text = voxrig::dump_any(in, *profile, limits);
    if (!text.ok()) return reject(text.error());
    std::cout << *text;
    return 0;
  }
  auto out = args[0] == "roundtrip" ? voxrig::roundtrip_any(in, *profile, limits)
                                    : voxrig::canonicalize_any(in, *profile, limits);
  if (!out.ok()) return reject(out.error());
  std::ofstream file(args[4], std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(out->data()), static_cast<std::streamsize>(out->size()));
  return file ? 0 : 3;
}
