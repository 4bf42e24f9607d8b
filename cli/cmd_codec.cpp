// voxrig compile / dump / validate / roundtrip / canonicalize / limits / errors.
#include <iostream>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/any_format.h"
#include "voxrig/error.h"
#include "voxrig/json_out.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kProfileHelp =
    "  --profile P   vfp-static | vfp-rig | rkc-strict | rkc-compat\n"
    "                (default: vfp-rig for VFP files, rkc-strict for RKCH/KV6/RVC/KFA)\n";

// The profile to use for `bytes`: the --profile option, else the format's strict default.
Profile effective_profile(std::optional<Profile> given, std::span<const uint8_t> bytes) {
  if (given) return *given;
  const Format f = detect_format(bytes);
  return f == Format::Vfp || f == Format::Unknown ? Profile::VfpRig : Profile::RkcStrict;
}

// Shared shape of dump/roundtrip/canonicalize: parse args, read IN, run op, report.
struct FileCommand {
  std::optional<Args> args;
  std::optional<Profile> profile;
  int exit = kExitOk;
};

FileCommand begin(int argc, char** argv, std::string_view usage, size_t positional) {
  FileCommand c;
  c.args = parse_args(argc, argv, 2, {"--profile", "-o"}, {});
  if (!c.args) {
    c.exit = kExitUsage;
    return c;
  }
  if (c.args->help) {
    print_text(usage);
    c.exit = -1;  // printed help: caller returns kExitOk
    return c;
  }
  bool bad = false;
  c.profile = profile_option(*c.args, bad);
  if (bad)
    c.exit = kExitUsage;
  else if (c.args->positional.size() != positional) {
    std::cerr << "voxrig: expected " << positional << " file argument(s), got "
              << c.args->positional.size() << " (see --help)\n";
    c.exit = kExitUsage;
  }
  return c;
}

int finish_help(const FileCommand& c) { return c.exit == -1 ? int{kExitOk} : c.exit; }

// roundtrip and canonicalize differ only in the operation.
template <class Op>
int rewrite_command(int argc, char** argv, std::string_view usage, Op op) {
  FileCommand c = begin(argc, argv, usage, 2);
  if (c.exit != kExitOk) return finish_help(c);
  auto in = read_file(c.args->positional[0]);
  if (!in) return kExitIo;
  const Profile profile = effective_profile(c.profile, *in);
  auto out = op(*in, profile, Limits{});
  if (!out.ok()) {
    std::cout << error_json(out.error()) << "\n";
    return kExitReject;
  }
  return write_file(c.args->positional[1], *out) ? kExitOk : kExitIo;
}

}  // namespace

int cmd_compile(int argc, char** argv) {
  static constexpr std::string_view kUsage =
      "usage: voxrig compile IN.json -o OUT.vfp\n"
      "Compiles the JSON compile input (formats.md) into a VFP 1.3 file; with a \"rig\" object\n"
      "the SKEL/VSKN/ANIM sections are written and bound by SHA-256.\n"
      "Exit: 0 written, 1 the JSON was rejected ({\"error\", \"offset\", \"path\"} on stdout,\n"
      "the path is a JSON path), 2 usage, 3 I/O.\n";
  auto args = parse_args(argc, argv, 2, {"-o"}, {});
  if (!args) return kExitUsage;
  if (args->help) {
    print_text(kUsage);
    return kExitOk;
  }
  auto out_path = args->get("-o");
  if (args->positional.size() != 1 || !out_path) {
    std::cerr << "voxrig: compile needs IN.json and -o OUT.vfp (see --help)\n";
    return kExitUsage;
  }
  auto in = read_file(args->positional[0]);
  if (!in) return kExitIo;
  auto model = compile_vfp_json(
      std::string_view(reinterpret_cast<const char*>(in->data()), in->size()), Limits{});
  if (!model.ok()) {
    std::cout << error_json(model.error()) << "\n";
    std::cerr << args->positional[0] << ": " << model.error().to_text() << "\n";
    return kExitReject;
  }
  auto bytes = encode_vfp(*model);
  if (!bytes.ok()) {
    std::cout << error_json(bytes.error()) << "\n";
    return kExitReject;
  }
  return write_file(*out_path, *bytes) ? kExitOk : kExitIo;
}

int cmd_dump(int argc, char** argv) {
  static const std::string kUsage =
      "usage: voxrig dump [--profile P] FILE\n"
      "Decodes FILE (format chosen by magic bytes) and prints its canonical JSON dump\n"
      "(docs/dump-schema.md). This is the reader protocol of the conformance suite.\n" +
      std::string(kProfileHelp) +
      "Exit: 0 accepted (dump on stdout), 1 rejected ({\"error\": code, \"offset\": N,\n"
      "\"path\": ...} on stdout), 2 usage, 3 I/O.\n";
  FileCommand c = begin(argc, argv, kUsage, 1);
  if (c.exit != kExitOk) return finish_help(c);
  auto in = read_file(c.args->positional[0]);
  if (!in) return kExitIo;
  auto dump = dump_any(*in, effective_profile(c.profile, *in), Limits{});
  if (!dump.ok()) {
    std::cout << error_json(dump.error()) << "\n";
    return kExitReject;
  }
  std::cout << *dump;
  return kExitOk;
}

int cmd_validate(int argc, char** argv) {
  static const std::string kUsage =
      "usage: voxrig validate [--profile P] [--json] FILE...\n"
      "Checks each FILE under the profile and prints human-readable diagnostics:\n"
      "  FILE: ok (format, profile)            or\n"
      "  FILE:OFFSET: error CODE at PATH: detail\n"
      "plus one line per warning (duplicates, non-canonical order, trailing payload bytes...).\n" +
      std::string(kProfileHelp) +
      "  --json        one JSON object per file instead of text\n"
      "Exit: 0 every file valid, 1 at least one rejected, 2 usage, 3 I/O.\n";
  auto args = parse_args(argc, argv, 2, {"--profile"}, {"--json"});
  if (!args) return kExitUsage;
  if (args->help) {
    print_text(kUsage);
    return kExitOk;
  }
  bool bad = false;
  auto given = profile_option(*args, bad);
  if (bad) return kExitUsage;
  if (args->positional.empty()) {
    std::cerr << "voxrig: validate needs at least one FILE (see --help)\n";
    return kExitUsage;
  }
  int exit = kExitOk;
  for (const auto& path : args->positional) {
    auto in = read_file(path);
    if (!in) return kExitIo;
    const Profile profile = effective_profile(given, *in);
    ValidationReport r = validate_any(*in, profile, Limits{});
    if (r.error) exit = kExitReject;
    if (args->has("--json")) {
      std::cout << "{\"file\": " << json_quote(path) << ", \"format\": \"" << to_string(r.format)
                << "\", \"profile\": \"" << to_string(profile)
                << "\", \"valid\": " << (r.error ? "false" : "true");
      if (r.error) std::cout << ", \"error\": " << error_json(*r.error);
      std::cout << ", \"warnings\": [";
      for (size_t i = 0; i < r.warnings.size(); ++i) {
        const Warning& w = r.warnings[i];
        std::cout << (i ? ", " : "") << "{\"warning\": " << json_quote(to_string(w.code))
                  << ", \"offset\": " << w.offset << ", \"path\": " << json_quote(w.path) << "}";
      }
      std::cout << "]}\n";
      continue;
    }
    for (const Warning& w : r.warnings)
      std::cout << path << ":" << w.offset << ": warning " << to_string(w.code)
                << (w.path.empty() ? "" : " at " + w.path)
                << (w.detail.empty() ? "" : ": " + w.detail) << "\n";
    if (r.error) {
      const Error& e = *r.error;
      std::cout << path << ":" << e.offset << ": error " << to_string(e.code) << " ("
                << to_string(category_of(e.code)) << ")" << (e.path.empty() ? "" : " at " + e.path)
                << (e.detail.empty() ? "" : ": " + e.detail) << "\n";
    } else {
      std::cout << path << ": ok (" << to_string(r.format) << ", " << to_string(profile) << ", "
                << r.warnings.size() << " warning(s))\n";
    }
  }
  return exit;
}

int cmd_roundtrip(int argc, char** argv) {
  static const std::string kUsage =
      "usage: voxrig roundtrip [--profile P] IN OUT\n"
      "Decodes IN and writes it back with the writer (formats.md D1): byte-identical for every\n"
      "valid VFP and RVC file; the canonical writer for RKCH, KV6 and KFA.\n" +
      std::string(kProfileHelp) +
      "Exit: 0 written, 1 rejected (error JSON on stdout), 2 usage, 3 I/O.\n";
  return rewrite_command(argc, argv, kUsage, roundtrip_any);
}

int cmd_canonicalize(int argc, char** argv) {
  static const std::string kUsage =
      "usage: voxrig canonicalize [--profile P] IN OUT\n"
      "Decodes IN and writes its canonical form (formats.md D1): VFP sections reordered by tag\n"
      "class; other formats as roundtrip.\n" +
      std::string(kProfileHelp) +
      "Exit: 0 written, 1 rejected (error JSON on stdout), 2 usage, 3 I/O.\n";
  return rewrite_command(argc, argv, kUsage, canonicalize_any);
}

int cmd_limits(int argc, char** argv) {
  auto args = parse_args(argc, argv, 2, {}, {});
  if (!args) return kExitUsage;
  if (args->help) {
    print_text(
        "usage: voxrig limits\nPrints the default decoding limits as JSON (formats.md D18 "
        "table).\n");
    return kExitOk;
  }
  std::cout << Limits{}.to_json();
  return kExitOk;
}

int cmd_errors(int argc, char** argv) {
  auto args = parse_args(argc, argv, 2, {}, {"--markdown"});
  if (!args) return kExitUsage;
  if (args->help) {
    print_text(
        "usage: voxrig errors [--markdown]\n"
        "Prints the error-code list (code, pinned value, category) as JSON, or as the Markdown\n"
        "table of docs/errors.md with --markdown.\n");
    return kExitOk;
  }
  const bool md = args->has("--markdown");
  if (md) {
    std::cout << "# voxrig error codes\n\n"
                 "Generated by `voxrig errors --markdown` from "
                 "`reference/include/voxrig/errors.def`; do not edit by hand.\n"
                 "Codes are stable: a code used by a golden case never changes.\n\n"
                 "| code | value | category |\n|---|---|---|\n";
  } else {
    std::cout << "[";
  }
  bool first = true;
  for_each_error_code([&](ErrorCode, uint16_t value, std::string_view code, Category cat) {
    if (md) {
      std::cout << "| `" << code << "` | " << value << " | " << to_string(cat) << " |\n";
    } else {
      std::cout << (first ? "\n" : ",\n") << "  {\"code\": \"" << code << "\", \"value\": " << value
                << ", \"category\": \"" << to_string(cat) << "\"}";
    }
    first = false;
  });
  if (!md) std::cout << "\n]\n";
  return kExitOk;
}

}  // namespace voxrig::cli
