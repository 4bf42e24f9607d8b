#!/usr/bin/env bash
# The README's first example, run as an implementer runs it: from their own folder (outside the
# voxrig checkout, with a space in its path), with a relative reader path and relative report
# paths. The reader is the example Python reader copied there as my_reader.py. scripts/conform.sh
# must run the reader from that folder, write conform.xml / conform.json there (and nothing into
# the checkout), and pass. VOXRIG=VOXRIG_EXE skips the script's install + build step (the CTest
# runs after the build). One section keeps it short; the full corpus is
# golden_conform_python_reader.
# usage: golden/tests/readme_example_elsewhere.sh VOXRIG_EXE
set -euo pipefail
voxrig="$(cd "$(dirname "${1:?usage: readme_example_elsewhere.sh VOXRIG_EXE}")" && pwd)/$(basename "$1")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mine="$tmp/my project"
mkdir -p "$mine/reports"
cp "$root"/golden/readers/python/voxrig_*.py "$mine/"
mv "$mine/voxrig_reader.py" "$mine/my_reader.py"
touch "$tmp/stamp"

run() { (cd "$mine" && VOXRIG="$voxrig" "$root/scripts/conform.sh" "$@") > "$tmp/log" 2>&1; }
start=$(date +%s.%N)
run --reader 'python3 my_reader.py' --profile vfp-static --profile vfp-rig \
    --junit conform.xml --report reports/conform.json --html conform.html \
    --filter vfp/header/ --jobs 2 \
  || { echo "FAIL: the README example from $mine exited $?"; cat "$tmp/log"; exit 1; }
echo "ok: README example from another folder: $(tail -n 1 "$tmp/log")" \
     "($(python3 -c "import time; print(round(time.time() - $start, 1))") s)"
for f in conform.xml reports/conform.json conform.html; do
  [ -s "$mine/$f" ] || { echo "FAIL: $f was not written in the caller's folder"; ls -R "$mine"; exit 1; }
done
grep -q '^[1-9][0-9]* passed, 0 failed$' "$tmp/log" || { echo "FAIL: no passing summary"; cat "$tmp/log"; exit 1; }
stray="$(find "$root" -path "$root/build" -prune -o -newer "$tmp/stamp" \
  \( -name conform.xml -o -name conform.json -o -name conform.html \) -print)"
[ -z "$stray" ] || { echo "FAIL: the run wrote into the checkout: $stray"; exit 1; }
echo "ok: the reports are in the caller's folder; nothing new in the checkout"

echo "readme example checks passed"
