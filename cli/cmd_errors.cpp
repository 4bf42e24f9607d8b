// voxrig errors: the error-code list of errors.def (codes, categories, meanings, spec sections),
// as JSON, as docs/spec/errors.md, or one code explained (voxrig/error_docs.h).
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/error_docs.h"

namespace voxrig::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: voxrig errors [--markdown] [CODE]\n"
    "Prints the error-code list of reference/include/voxrig/errors.def (code, pinned value,\n"
    "category, spec section, meaning; then the validator warnings) as JSON, or as the Markdown\n"
    "of docs/spec/errors.md with --markdown. With CODE (an error or a warning code, e.g.\n"
    "skel.parent_cycle), prints that code's meaning, category and spec section.\n"
    "Exit: 0 ok, 2 usage or an unknown CODE (the nearest codes are listed).\n";

constexpr OptionSpec kOptions[] = {{"--markdown", false}};

int run(const Args& args) {
  if (args.positional.size() > 1) {
    std::cerr << "voxrig: errors takes at most one CODE (see --help)\n";
    return kExitUsage;
  }
  if (args.positional.empty()) {
    std::cout << (args.has("--markdown") ? error_list_markdown() : error_list_json());
    return kExitOk;
  }
  const std::string& code = args.positional[0];
  if (const auto text = explain_code(code)) {
    std::cout << *text;
    return kExitOk;
  }
  std::cerr << "voxrig: errors: unknown code '" << code << "'";
  const auto near = near_codes(code);
  if (!near.empty()) {
    std::cerr << "; near matches:";
    for (const auto& n : near) std::cerr << " " << n;
  }
  std::cerr << " (voxrig errors lists them all)\n";
  return kExitUsage;
}

}  // namespace

extern const Command kErrors{"errors", "explain an error code, or list them (JSON, --markdown)",
                             kUsage, kOptions, run};

}  // namespace voxrig::cli
