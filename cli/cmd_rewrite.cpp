// voxrig roundtrip and voxrig canonicalize: decode a file and write it again
// (docs/spec/writers.md#D1). One file because the two differ only in the writer they call.
#include "cli_common.h"
#include "commands.h"
#include "decode_input.h"
#include "voxrig/any_format.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kRoundtripUsage =
    "usage: voxrig roundtrip [--profile P] IN OUT\n"
    "Decodes IN and writes it back with the writer (docs/spec/writers.md#D1): byte-identical for every\n"
    "valid VFP and RVC file; the canonical writer for RKCH, KV6 and KFA.\n"  //
    VOXRIG_CLI_PROFILE_HELP                                                  //
    "Exit: 0 written, 1 rejected (error JSON on stdout), 2 usage, 3 I/O.\n";

constexpr std::string_view kCanonicalizeUsage =
    "usage: voxrig canonicalize [--profile P] IN OUT\n"
    "Decodes IN and writes its canonical form (docs/spec/writers.md#D1): VFP sections reordered by tag\n"
    "class; other formats as roundtrip.\n"  //
    VOXRIG_CLI_PROFILE_HELP                 //
    "Exit: 0 written, 1 rejected (error JSON on stdout), 2 usage, 3 I/O.\n";

int roundtrip(const Args& args) { return rewrite_file(args, roundtrip_any); }
int canonicalize(const Args& args) { return rewrite_file(args, canonicalize_any); }

}  // namespace

extern const Command kRoundtrip{"roundtrip", "decode and re-write a file with the writer",
                                kRoundtripUsage, kFileOptions, roundtrip};
extern const Command kCanonicalize{"canonicalize", "decode and write the canonical form",
                                   kCanonicalizeUsage, kFileOptions, canonicalize};

}  // namespace voxrig::cli
