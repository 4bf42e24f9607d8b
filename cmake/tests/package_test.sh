#!/usr/bin/env bash
# The release packages from an already-built voxrig: `cpack` makes the .tar.gz (and the .deb when
# dpkg-deb is installed) into a scratch folder; both must hold the CLI, the golden corpus, the
# CMake package and the docs. The .tar.gz is then unpacked into a scratch prefix, as a CI job
# using the release package does, and its `voxrig conform` runs from another folder: it must find
# the corpus it carries by itself (no --golden, no VOXRIG_GOLDEN) and pass. Package sizes and
# times are printed. Registered as the CTest `package_conform`.
# usage: cmake/tests/package_test.sh BUILD_DIR
set -euo pipefail
build="$(cd "${1:?usage: package_test.sh BUILD_DIR}" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/voxrig-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT
generators=TGZ
command -v dpkg-deb >/dev/null 2>&1 && generators="TGZ;DEB"

start=$(date +%s)
cpack --config "$build/CPackConfig.cmake" -G "$generators" -B "$work/out" > "$work/cpack.log" 2>&1 ||
  { echo "FAIL: cpack -G $generators"; cat "$work/cpack.log"; exit 1; }
echo "== cpack -G $generators: $(( $(date +%s) - start )) s"
tgz="$(ls "$work"/out/voxrig-*.tar.gz)"
want=(bin/voxrig share/voxrig/golden/manifest.json lib/cmake/voxrig/voxrigConfig.cmake
      share/doc/voxrig/README.md share/doc/voxrig/spec)
listing="$(tar -tzf "$tgz" | sed 's|^[^/]*/||')"
for w in "${want[@]}"; do
  grep -q "^$w" <<<"$listing" || { echo "FAIL: $(basename "$tgz") has no $w"; exit 1; }
done
echo "ok: $(basename "$tgz") $(du -k "$tgz" | cut -f1) KiB: CLI, corpus, CMake package, docs"
if [[ "$generators" == *DEB* ]]; then
  deb="$(ls "$work"/out/voxrig*.deb)"
  debls="$(dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./usr/||')"
  for w in "${want[@]}"; do
    grep -q "^$w" <<<"$debls" || { echo "FAIL: $(basename "$deb") has no /usr/$w"; exit 1; }
  done
  dpkg-deb -f "$deb" Depends | grep -q libssl ||
    { echo "FAIL: $(basename "$deb") does not depend on libssl"; exit 1; }
  echo "ok: $(basename "$deb") $(du -k "$deb" | cut -f1) KiB: the same under /usr, Depends: $(dpkg-deb -f "$deb" Depends)"
fi

mkdir -p "$work/prefix" "$work/elsewhere"
tar -xzf "$tgz" -C "$work/prefix" --strip-components=1
start=$(date +%s)
(cd "$work/elsewhere" && env -u VOXRIG_GOLDEN "$work/prefix/bin/voxrig" conform --jobs 2 \
   --profile vfp-rig --profile rkc-strict --filter /seed --filter /header/ --report r.json \
   > "$work/conform.log" 2>&1) || { echo "FAIL: conform from the unpacked package"; cat "$work/conform.log"; exit 1; }
grep -q "golden:   $work/prefix/share/voxrig/golden$" "$work/conform.log" ||
  { echo "FAIL: the unpacked voxrig did not use its own corpus"; cat "$work/conform.log"; exit 1; }
[ -s "$work/elsewhere/r.json" ] || { echo "FAIL: no report in the caller's folder"; exit 1; }
echo "ok: unpacked voxrig conform from another folder ($(( $(date +%s) - start )) s): $(tail -n 1 "$work/conform.log")"
# The CI action's setup from the release package (what `package:` / VOXRIG_PACKAGE does).
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VOXRIG_PACKAGE="$tgz" "$src/.github/actions/voxrig-conform/voxrig-conform.sh" setup \
  "$work/action-prefix" > "$work/setup.log" 2>&1 || { echo "FAIL: action setup"; cat "$work/setup.log"; exit 1; }
echo "ok: $(cat "$work/setup.log")"
echo "package test passed"
