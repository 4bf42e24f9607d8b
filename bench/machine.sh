#!/usr/bin/env bash
# bench/machine.sh — this machine's CPU class, and the checked-in baseline recorded on that class.
#
# Usage: bench/machine.sh              prints the class, e.g. "AuthenticAMD family 25 model 17
#                                      avx2+avx512" (vendor, family, model, widest vector ISA)
#        bench/machine.sh --baseline   prints the path of the bench/baselines/*.json whose
#                                      context.cpu_class is this class
# Why: `lscpu`'s model name ("AMD EPYC") is the same on Zen 4 and Zen 5 guests, whose memcpy and
# kernels differ by up to 2x, so a gate against a baseline of the other class flags CPU
# differences as regressions. run.sh records the class in every run's context (cpu_class) and
# gate.py warns when BASE and NEW differ in it.
# Exit: 0 found, 1 no baseline of this class (stderr lists the classes there are and how to
# record one), 2 usage.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

cpu_class() {
  awk -F': ' '
    /^vendor_id/ { vendor = $2 }
    /^cpu family/ { family = $2 }
    /^model\t/ { model = $2 }
    /^flags/ {
      isa = "sse2"
      if ($2 ~ /(^| )avx2( |$)/) isa = "avx2"
      if ($2 ~ /(^| )avx512f( |$)/) isa = isa "+avx512"
      exit
    }
    END { printf "%s family %s model %s %s\n", vendor, family, model, isa }' /proc/cpuinfo
}

case "${1:-}" in
  "") cpu_class ;;
  --baseline)
    class="$(cpu_class)"
    python3 - "$class" "$here"/baselines/*.json <<'EOF'
import json, sys
class_, paths = sys.argv[1], sys.argv[2:]
seen = []
for path in paths:
    context = json.load(open(path)).get("context", {})
    if context.get("cpu_class") == class_:
        print(path)
        sys.exit(0)
    seen.append("  %s: %s" % (path, context.get("cpu_class", "(no cpu_class)")))
print("machine.sh: no checked-in baseline for this CPU class (%s); the baselines:\n%s\n"
      "Record one (~16 min): bench/run.sh --compact -o bench/baselines/cpp-2core-NAME.json"
      % (class_, "\n".join(seen)), file=sys.stderr)
sys.exit(1)
EOF
    ;;
  -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" ;;
  *) echo "machine.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac
