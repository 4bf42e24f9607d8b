// voxrig gen — writes seeded generated cases (voxrig/testing/gen.h) as a corpus in the golden
// layout, with expected dumps per profile and a manifest, for `voxrig conform --golden DIR`.
#include <filesystem>
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "option_values.h"

namespace voxrig::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kUsage =
    "usage: voxrig gen --out DIR [--format vfp|rkc|kv6|rvc|kfa|all] [--count N] [--seed S]\n"
    "                  [--negative | --mix-negative K] [--size small|medium] [--index I]\n"
    "                  [--list-mutations]\n"
    "Writes N seeded, generated files (valid by construction) with their expected dumps and a\n"
    "manifest in the golden layout, so `voxrig conform --golden DIR` runs them unchanged.\n"
    "  --format F          one format, or all (cycled case by case; default all)\n"
    "  --count N           number of cases (default 10)\n"
    "  --seed S            run seed (default 1); case i uses a seed derived from (S, i), so the\n"
    "                      same command gives the same bytes on every platform\n"
    "  --negative          every case is a valid file with one mutation whose expected error code\n"
    "                      per profile is declared in the generator's table (--list-mutations)\n"
    "  --mix-negative K    case i is negative when i % K == K-1 (conform --generated uses 4)\n"
    "  --size S            small (default; files of a few hundred bytes) or medium\n"
    "  --index I           only case I of the run (to reproduce one case of a larger run)\n"
    "  --list-mutations    print the mutation table (kind, expected code per profile, rule)\n"
    "Exit: 0 ok; 4 the reference disagrees with a generated file's declared verdict (the corpus\n"
    "is written anyway and the disagreements listed); 2 usage; 3 I/O.\n";

constexpr OptionSpec kOptions[] = {{"--format", true, kGenFormatChoices, true},
                                   {"--count", true},
                                   {"--seed", true},
                                   {"--out", true},
                                   {"--size", true, kGenSizeChoices},
                                   {"--index", true},
                                   {"--mix-negative", true},
                                   {"--negative", false},
                                   {"--list-mutations", false}};

std::string profile_expect_text(const std::optional<ErrorCode>& e) {
  return e ? std::string(to_string(*e)) : "accept";
}

int run(const Args& args) {
  if (args.has("--list-mutations")) {
    for (const auto& k : gen::mutation_kinds()) {
      const bool vfp = k.format == gen::GenFormat::Vfp;
      std::cout << gen::to_string(k.format) << "\t" << k.name << "\t"
                << (vfp ? "vfp-static=" : "rkc-strict=") << profile_expect_text(k.first) << "\t"
                << (vfp ? "vfp-rig=" : "rkc-compat=") << profile_expect_text(k.second) << "\t"
                << k.rule << "\n";
    }
    return kExitOk;
  }
  if (!args.positional.empty()) {
    std::cerr << "voxrig gen: unexpected argument '" << args.positional[0] << "' (see --help)\n";
    return kExitUsage;
  }
  gen::GenCorpusOptions o;
  if (int rc = parse_generated_options(args, o, "gen"); rc != kExitOk) return rc;
  const auto out = args.last("--out");
  if (!out) {
    std::cerr << "voxrig gen: --out DIR is required\n";
    return kExitUsage;
  }
  uint64_t index = 0, mix = 0;
  if (!number_option(args, "gen", "--count", 1, 10000000, o.count) ||
      !number_option(args, "gen", "--index", 0, 99999999, index) ||
      !number_option(args, "gen", "--mix-negative", 1, 1000000, mix))
    return kExitUsage;
  if (args.has("--index")) o.index = index;
  o.all_negative = args.has("--negative");
  o.negative_every = static_cast<uint32_t>(mix);
  if (mix && o.all_negative) {
    std::cerr << "voxrig gen: --mix-negative and --negative exclude each other\n";
    return kExitUsage;
  }
  std::error_code ec;
  if (fs::exists(fs::path(*out) / "sources", ec)) {  // never overwrite the golden corpus itself
    std::cerr << "voxrig gen: " << *out << " holds golden case sources; choose another --out\n";
    return kExitUsage;
  }
  fs::create_directories(*out, ec);
  if (!fs::is_directory(*out, ec)) {  // one line, not one error per case
    std::cerr << "voxrig: cannot write " << *out << ": "
              << (fs::exists(*out, ec) ? "not a directory (--out takes a directory)"
                                       : "cannot create the directory")
              << "\n";
    return kExitIo;
  }
  if (fs::exists(fs::path(*out) / "manifest.json", ec))
    for (const char* sub : {"files/gen", "dumps/gen", "expected/gen"})
      fs::remove_all(fs::path(*out) / sub, ec);
  std::vector<std::string> ids;
  const int rc = write_generated(*out, o, true, ids);
  if (rc == kExitIo) return rc;
  size_t n = 0;
  for (const auto& id : ids) n += !id.empty();
  std::cout << "gen: wrote " << n << " case(s) to " << *out << " (seed " << o.seed << ")\n";
  return rc;
}

}  // namespace

extern const Command kGen{"gen", "write seeded generated cases (valid + negative) as a corpus",
                          kUsage, kOptions, run};

}  // namespace voxrig::cli
