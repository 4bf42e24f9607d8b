// voxrig serve: the reference as a persistent reader (docs/spec/protocols.md, "Persistent
// protocol (serve)"). The loop is the library's serve_loop(); each request runs the one-shot
// command of the same name in process, its stdout and stderr captured into the answer.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli_common.h"
#include "commands.h"
#include "voxrig/conform/serve.h"

namespace voxrig::cli {
namespace {

using namespace voxrig::conform;

constexpr std::string_view kUsage =
    "usage: voxrig serve\n"
    "Answers the persistent reader protocol `voxrig-serve/1` on stdin/stdout: one JSON request\n"
    "per line ({\"id\": N, \"op\": \"dump\", \"args\": [\"--profile\", P, FILE]}), one JSON answer\n"
    "per line ({\"id\": N, \"exit\": 0|1, \"stdout\": \"...\"}), until EOF. The operations are\n"
    "dump, roundtrip, canonicalize, compile, pose and mesh, each as its own command; the first\n"
    "request is {\"op\": \"hello\", \"protocol\": \"voxrig-serve/1\"}. `voxrig conform`,\n"
    "`fuzz-reader` and `bench-reader` use it when a reader offers it (docs/spec/protocols.md).\n"
    "Exit: 0 at EOF, 2 usage, 3 stdout failed.\n";

// One request: the command of that name, stdout and stderr captured.
ServeAnswer answer(const std::vector<std::string>& args) {
  ServeAnswer a;
  const bool known = std::find(std::begin(kServeOps), std::end(kServeOps), args[0]) !=
                     std::end(kServeOps);
  // "-" would read the protocol's own stdin.
  if (!known || std::find(args.begin(), args.end(), "-") != args.end()) {
    a.exit = kExitUsage;
    a.err = known ? "voxrig serve: '-' (stdin) is not a file here\n"
                  : "voxrig serve: unknown operation '" + args[0] + "'\n";
    return a;
  }
  std::vector<std::string> argv_text = {"voxrig"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_text) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::ostringstream out, err;
  std::streambuf* old_out = std::cout.rdbuf(out.rdbuf());
  std::streambuf* old_err = std::cerr.rdbuf(err.rdbuf());
  a.exit = run_command(int(argv_text.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  std::cout.clear();
  std::cerr.clear();
  a.out = std::move(out).str();
  a.err = std::move(err).str();
  return a;
}

int run(const Args& args) {
  if (!args.positional.empty()) {
    std::cerr << "voxrig serve: unexpected argument '" << args.positional[0] << "' (see --help)\n";
    return kExitUsage;
  }
  std::ostream wire(std::cout.rdbuf());  // stays on the real stdout while a request runs
  const std::vector<std::string> ops(std::begin(kServeOps), std::end(kServeOps));
  const std::vector<std::string> profiles(std::begin(kProfileChoices), std::end(kProfileChoices));
  return serve_loop(std::cin, wire, ops, profiles, answer);
}

}  // namespace

extern const Command kServe{"serve", "answer reader requests over stdin/stdout (serve protocol)",
                            kUsage, {}, run};

}  // namespace voxrig::cli
