#!/usr/bin/env bash
# The JSON compiler writes the canonical section order (docs/spec/vfp.md, Order): every model
# under golden/sources/vfp/models compiles, and `voxrig canonicalize` of the compiled file gives
# back exactly the same bytes. (rig_caches.json, with caches, a rig and unknown sections, is the
# model that caught the compiler writing unknown sections right after VOX0.)
# usage: golden/tests/compile_canonical.sh VOXRIG_EXE
set -euo pipefail
voxrig=${1:?usage: compile_canonical.sh VOXRIG_EXE}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0
bad=0
for model in "$root"/golden/sources/vfp/models/*.json; do
  name=$(basename "$model" .json)
  "$voxrig" compile "$model" -o "$tmp/$name.vfp" > "$tmp/out" || {
    echo "FAIL: $name does not compile: $(cat "$tmp/out")"; bad=1; continue; }
  "$voxrig" canonicalize "$tmp/$name.vfp" "$tmp/$name.canon.vfp" > "$tmp/out" || {
    echo "FAIL: $name: canonicalize rejected the compiled file: $(cat "$tmp/out")"; bad=1; continue; }
  if ! cmp -s "$tmp/$name.vfp" "$tmp/$name.canon.vfp"; then
    echo "FAIL: $name: the compiled file is not in canonical section order ($(cmp "$tmp/$name.vfp" "$tmp/$name.canon.vfp" | head -1))"
    bad=1
  fi
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "FAIL: no model found"; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "ok: $n models compile to canonical bytes"
