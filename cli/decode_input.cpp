// Taking a file in, shared by the codec and model commands.
#include "decode_input.h"

#include <iostream>

#include "voxrig/any_format.h"

namespace voxrig::cli {

Profile effective_profile(std::optional<Profile> given, std::span<const uint8_t> bytes) {
  if (given) return *given;
  const Format f = detect_format(bytes);
  return f == Format::Vfp || f == Format::Unknown ? Profile::VfpRig : Profile::RkcStrict;
}

int file_arguments(const Args& args, size_t files, std::optional<Profile>& profile) {
  bool bad = false;
  profile = profile_option(args, bad);
  if (bad) return kExitUsage;
  if (args.positional.size() != files) {
    std::cerr << "voxrig: expected " << files << " file argument(s), got " << args.positional.size()
              << " (see --help)\n";
    return kExitUsage;
  }
  return kExitOk;
}

int rewrite_file(const Args& args, FileOp<std::vector<uint8_t>> op) {
  int exit = kExitOk;
  auto out = run_on_file(args, 2, op, exit);
  if (!out) return exit;
  return write_file(args.positional[1], *out) ? kExitOk : kExitIo;
}

std::optional<VfpFile> load_vfp(const std::string& path, std::span<const uint8_t> bytes,
                                int& exit) {
  auto f = decode_vfp(bytes, DecodeOptions{Profile::VfpRig, Limits{}});
  if (!f.ok()) {
    print_error_json(f.error());
    std::cerr << path << ": " << f.error().to_text() << "\n";
    exit = kExitReject;
    return std::nullopt;
  }
  return std::move(f).value();
}

std::optional<VfpFile> read_vfp(const std::string& path, int& exit) {
  auto in = read_file(path);
  if (!in) {
    exit = kExitIo;
    return std::nullopt;
  }
  return load_vfp(path, *in, exit);
}

int report_rejection(const Error& e, const std::string& what) {
  print_error_json(e);
  std::cerr << "voxrig: " << what << ": " << e.to_text() << "\n";
  return kExitReject;
}

}  // namespace voxrig::cli
