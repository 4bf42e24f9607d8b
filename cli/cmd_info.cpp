// voxrig info: a short human (or --json) summary of one file: format, size, hashes, counts,
// top-level sections/chunks with sizes, and the verdict under every profile that applies.
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/any_format.h"
#include "voxrig/file_summary.h"
#include "voxrig/json_out.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/layout.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig info [--json] FILE\n"
    "Prints a short summary of FILE (- reads stdin): format, size, SHA-256, counts (grid,\n"
    "palette, joints, bindings, clips; meshes, bones, voxel clips; voxels; frames; hinges),\n"
    "the top-level sections (VFP) or chunks (RKCH, RVC) with offsets and sizes, and the\n"
    "verdict under each profile that applies to the format (vfp-static + vfp-rig, or\n"
    "rkc-strict + rkc-compat; all four for a file of unknown format).\n"
    "Sections and chunks are listed by the lenient wire framing, so a rejected file shows them\n"
    "too; counts come from decoding under the format's default profile, or under the family's\n"
    "other profile (vfp-static, rkc-compat) when the default rejects the file. Time and memory\n"
    "are those of `dump` (docs/robustness.md).\n"
    "  --json   one JSON object instead of text\n"
    "Exit: 0 printed (whatever the verdicts), 2 usage, 3 I/O.\n";

constexpr OptionSpec kOptions[] = {{"--json", false}};

struct Part {
  std::string name, tag;
  uint64_t offset = 0, size = 0;
};

// Top-level sections / chunks ("section[i]" / "chunk[i]", with their tags) from the lenient
// framing: one pass over the frame headers, so a rejected file shows them too and the cost is
// one small record per frame (never the field walk, whose names cost ~100x the file).
std::vector<Part> parts_of(std::span<const uint8_t> bytes) {
  std::vector<Part> parts;
  const auto framing = testing::framing_of(bytes);
  if (!framing) return parts;
  const char* name = framing->container == testing::Container::Vfp ? "section[" : "chunk[";
  parts.reserve(framing->frames.size());
  for (size_t i = 0; i < framing->frames.size(); ++i) {
    const testing::Frame& f = framing->frames[i];
    Part p{name + std::to_string(i) + "]", "", f.offset, f.payload_end - f.offset};
    for (uint8_t b : f.tag) p.tag += b >= 0x20 && b < 0x7f ? static_cast<char>(b) : '?';
    parts.push_back(std::move(p));
  }
  return parts;
}

void print_json(const std::string& path, std::span<const uint8_t> bytes) {
  std::cout << "{\"file\": " << json_quote(path) << ", \"format\": \""
            << to_string(detect_format(bytes)) << "\", \"size\": " << bytes.size()
            << ", \"sha256\": \"" << to_hex(sha256(bytes)) << "\", ";
  const ContentCounts contents = count_contents(bytes);
  const auto& counts = contents.counts;
  if (!counts.empty())
    std::cout << "\"counts_profile\": \"" << to_string(contents.profile) << "\", ";
  std::cout << "\"counts\": {";
  for (size_t i = 0; i < counts.size(); ++i)
    std::cout << (i ? ", " : "") << json_quote(counts[i].first) << ": " << counts[i].second;
  std::cout << "}, \"parts\": [";
  const auto parts = parts_of(bytes);
  for (size_t i = 0; i < parts.size(); ++i)
    std::cout << (i ? ", " : "") << "{\"name\": " << json_quote(parts[i].name)
              << ", \"tag\": " << json_quote(parts[i].tag) << ", \"offset\": " << parts[i].offset
              << ", \"size\": " << parts[i].size << "}";
  std::cout << "], \"verdicts\": {";
  const auto verdicts = verdicts_by_profile(bytes);
  for (size_t i = 0; i < verdicts.size(); ++i) {
    const ValidationReport& r = verdicts[i].report;
    std::cout << (i ? ", " : "") << "\"" << to_string(verdicts[i].profile)
              << "\": {\"valid\": " << (r.error ? "false" : "true");
    if (r.error) std::cout << ", \"error\": " << error_json(*r.error);
    std::cout << ", \"warnings\": " << r.warnings.size() << "}";
  }
  std::cout << "}}\n";
}

void print_text(const std::string& path, std::span<const uint8_t> bytes) {
  std::cout << path << ": " << to_string(detect_format(bytes)) << ", " << bytes.size()
            << " bytes\n  sha256   " << to_hex(sha256(bytes)) << "\n";
  const ContentCounts contents = count_contents(bytes);
  if (!contents.counts.empty()) {
    std::cout << "  counts  ";
    for (const auto& [name, n] : contents.counts) std::cout << " " << name << "=" << n;
    if (contents.profile != default_profile(bytes))
      std::cout << "  (under " << to_string(contents.profile)
                << "; the default profile rejects the file)";
    std::cout << "\n";
  }
  for (const Part& p : parts_of(bytes))
    std::cout << "  " << p.name << " " << (p.tag.empty() ? "" : p.tag + " ") << "@" << p.offset
              << " " << p.size << " bytes\n";
  for (const ProfileVerdict& v : verdicts_by_profile(bytes)) {
    std::cout << "  " << to_string(v.profile) << ": ";
    if (v.report.error)
      std::cout << "reject " << to_string(v.report.error->code) << " at offset "
                << v.report.error->offset
                << (v.report.error->path.empty() ? "" : " (" + v.report.error->path + ")");
    else
      std::cout << "accept";
    std::cout << ", " << v.report.warnings.size() << " warning(s)\n";
  }
}

int run(const Args& args) {
  if (args.positional.size() != 1) {
    std::cerr << "voxrig: info needs one FILE (see --help)\n";
    return kExitUsage;
  }
  auto bytes = read_file(args.positional[0]);
  if (!bytes) return kExitIo;
  if (args.has("--json"))
    print_json(args.positional[0], *bytes);
  else
    print_text(args.positional[0], *bytes);
  return kExitOk;
}

}  // namespace

extern const Command kInfo{"info", "a short summary of a file: format, sizes, counts, verdicts",
                           kUsage, kOptions, run};

}  // namespace voxrig::cli
