// voxrig roundtrip: decode and re-write a file with the writer (docs/spec/writers.md#D1).
#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/any_format.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig roundtrip [--profile P] IN OUT\n"
    "Decodes IN and writes it back with the writer (docs/spec/writers.md#D1): byte-identical for every\n"
    "valid VFP and RVC file; the canonical writer for RKCH, KV6 and KFA.\n"  //
    VOXRIG_CLI_PROFILE_HELP                                                  //
    "Exit: 0 written, 1 rejected (error JSON on stdout), 2 usage, 3 I/O.\n";

int run(const Args& args) { return rewrite_file(args, roundtrip_any); }

}  // namespace

extern const Command kRoundtrip{"roundtrip", "decode and re-write a file with the writer", kUsage,
                                kFileOptions, run};

}  // namespace voxrig::cli
