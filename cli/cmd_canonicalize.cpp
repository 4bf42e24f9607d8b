// voxrig canonicalize: decode and write the canonical form (docs/spec/writers.md#D1).
#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/any_format.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig canonicalize [--profile P] IN OUT\n"
    "Decodes IN and writes its canonical form (docs/spec/writers.md#D1): VFP sections reordered by tag\n"
    "class; other formats as roundtrip.\n"  //
    VOXRIG_CLI_PROFILE_HELP                 //
    "Exit: 0 written, 1 rejected (error JSON on stdout), 2 usage, 3 I/O.\n";

int run(const Args& args) { return rewrite_file(args, canonicalize_any); }

}  // namespace

extern const Command kCanonicalize{"canonicalize", "decode and write the canonical form", kUsage,
                                   kFileOptions, run};

}  // namespace voxrig::cli
