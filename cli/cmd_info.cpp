// voxrig info: a short human (or --json) summary of one file: format, size, hashes, counts,
// top-level sections/chunks with sizes, and the verdict under every profile that applies.
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/any_format.h"
#include "voxrig/json_out.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/layout.h"
#include "voxrig/vfp.h"

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
struct Verdict {
  Profile profile;
  ValidationReport report;
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

// A decode or a verdict that ran out of memory is the command's failure (run_command reports
// internal.out_of_memory, exit 1), never a file shown without its counts.
template <class R>
bool decoded(const R& r) {
  if (!r.ok() && r.error().code == ErrorCode::InternalOutOfMemory) throw std::bad_alloc();
  return r.ok();
}

using Counts = std::vector<std::pair<std::string, uint64_t>>;

// name -> count, decoded under `profile`; empty when the file is rejected under it.
Counts counts_under(std::span<const uint8_t> bytes, Profile profile) {
  Counts c;
  const DecodeOptions o{profile, Limits{}};
  switch (detect_format(bytes)) {
    case Format::Vfp:
      if (auto f = decode_vfp(bytes, o); decoded(f)) {
        c.emplace_back("sections", f->sections.size());
        if (const Vox0* v = f->vox0()) {
          c.emplace_back("size_x", v->size_x);
          c.emplace_back("size_y", v->size_y);
          c.emplace_back("size_z", v->size_z);
          c.emplace_back("palette", v->palette.size());
          uint64_t filled = 0;
          for (uint8_t i : v->voxels) filled += i != 0;
          c.emplace_back("voxels", filled);
        }
        if (f->skel()) c.emplace_back("joints", f->skel()->joints.size());
        if (f->vskn()) c.emplace_back("bindings", f->vskn()->bindings.size());
        if (f->anim()) c.emplace_back("clips", f->anim()->clips.size());
      }
      break;
    case Format::Rkc:
      if (auto r = decode_rkc(bytes, o); decoded(r)) {
        c.emplace_back("meshes", r->meshes.size());
        c.emplace_back("bones", r->bones.size());
        c.emplace_back("clips", r->clips.size());
        c.emplace_back("voxel_clips", r->voxel_clips.size());
        c.emplace_back("extra_chunks", r->extra_chunks.size());
      }
      break;
    case Format::Kv6:
      if (auto k = decode_kv6(bytes, 0, o); decoded(k)) {
        c.emplace_back("size_x", k->xsiz);
        c.emplace_back("size_y", k->ysiz);
        c.emplace_back("size_z", k->zsiz);
        c.emplace_back("voxels", k->voxels.size());
      }
      break;
    case Format::Rvc:
      if (auto r = decode_rvc(bytes, 0, o); decoded(r)) {
        c.emplace_back("chunks", r->chunks.size());
        c.emplace_back("size_x", r->meta.dims[0]);
        c.emplace_back("size_y", r->meta.dims[1]);
        c.emplace_back("size_z", r->meta.dims[2]);
        c.emplace_back("frames", r->meta.frame_count);
      }
      break;
    case Format::Kfa:
      if (auto k = decode_kfa(bytes, o); decoded(k)) {
        c.emplace_back("hinges", k->hinges.size());
        c.emplace_back("frames", k->frame_count);
        c.emplace_back("seq", k->seq.size());
      }
      break;
    default:
      break;
  }
  return c;
}

// Counts under the format's default profile, or, when that rejects the file, under the family's
// other profile (vfp-static reads a VFP whose rig is broken; rkc-compat what rkc-strict
// rejects), so a rejected file still shows what it holds. `profile` is the one they came from.
Counts counts_of(std::span<const uint8_t> bytes, Profile& profile) {
  profile = effective_profile(std::nullopt, bytes);
  Counts c = counts_under(bytes, profile);
  if (!c.empty()) return c;
  profile = profile == Profile::VfpRig ? Profile::VfpStatic : Profile::RkcCompat;
  return counts_under(bytes, profile);
}

std::vector<Verdict> verdicts_of(std::span<const uint8_t> bytes) {
  const Format f = detect_format(bytes);
  std::vector<Profile> profiles;
  if (f == Format::Vfp || f == Format::Unknown) profiles = {Profile::VfpStatic, Profile::VfpRig};
  if (f != Format::Vfp) profiles.insert(profiles.end(), {Profile::RkcStrict, Profile::RkcCompat});
  std::vector<Verdict> v;
  for (Profile p : profiles) {
    v.push_back({p, validate_any(bytes, p, Limits{})});
    if (v.back().report.error && v.back().report.error->code == ErrorCode::InternalOutOfMemory)
      throw std::bad_alloc();
  }
  return v;
}

void print_json(const std::string& path, std::span<const uint8_t> bytes) {
  std::cout << "{\"file\": " << json_quote(path) << ", \"format\": \""
            << to_string(detect_format(bytes)) << "\", \"size\": " << bytes.size()
            << ", \"sha256\": \"" << to_hex(sha256(bytes)) << "\", ";
  Profile counted = Profile::VfpRig;
  const auto counts = counts_of(bytes, counted);
  if (!counts.empty()) std::cout << "\"counts_profile\": \"" << to_string(counted) << "\", ";
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
  const auto verdicts = verdicts_of(bytes);
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
  Profile counted = Profile::VfpRig;
  const auto counts = counts_of(bytes, counted);
  if (!counts.empty()) {
    std::cout << "  counts  ";
    for (const auto& [name, n] : counts) std::cout << " " << name << "=" << n;
    if (counted != effective_profile(std::nullopt, bytes))
      std::cout << "  (under " << to_string(counted) << "; the default profile rejects the file)";
    std::cout << "\n";
  }
  for (const Part& p : parts_of(bytes))
    std::cout << "  " << p.name << " " << (p.tag.empty() ? "" : p.tag + " ") << "@" << p.offset
              << " " << p.size << " bytes\n";
  for (const Verdict& v : verdicts_of(bytes)) {
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
