#!/usr/bin/env bash
# The CLI rough edges in the capability commands: output type follows --format, else
# the extension of -o; OBJ groups use joint names; a bad --clip lists the clips; enum options name
# the option and the allowed values; mesh works on an RKCH character (its KV6 meshes).
# usage: golden/tests/cli_capability_edges.sh VOXRIG_EXE
set -euo pipefail
voxrig=${1:?usage: cli_capability_edges.sh VOXRIG_EXE}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rig="$root/golden/files/vfp/seed/rig.vfp"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$voxrig" mesh -o "$tmp/m.glb" "$rig"
[ "$(head -c 4 "$tmp/m.glb")" = "glTF" ] || fail "mesh -o x.glb did not write GLB"
"$voxrig" mesh --format gltf -o "$tmp/m.gltf" "$rig"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['buffers'][0]['uri'].startswith('data:')" \
  "$tmp/m.gltf" || fail "mesh --format gltf -o x.gltf is not JSON glTF"
"$voxrig" export-gltf "$rig" -o "$tmp/e.gltf"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/e.gltf" || fail "export-gltf .gltf"
"$voxrig" mesh -o "$tmp/m.obj" "$rig"
grep -qx "g Arm" "$tmp/m.obj" || fail "OBJ groups are not named after the joints"
"$voxrig" pose --clip 0 --t 400 -o "$tmp/p.obj" "$rig"
grep -qx "g Arm" "$tmp/p.obj" || fail "posed OBJ groups are not named after the joints"
set +e
"$voxrig" pose --clip nope --t 0 "$rig" > "$tmp/out" 2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q "clips: 0 'wave'" "$tmp/err" || fail "bad --clip does not list the clips"
for cmd in "pose --clip 0 --t 0 --policy cubic $rig:--policy: 'cubic' is not one of step, linear, slerp" \
           "pose --clip 0 --t 0 --mode bounce $rig:--mode: 'bounce' is not one of clamp, loop" \
           "mesh --format stl -o x.stl $rig:--format: 'stl' is not one of json, obj, glb, gltf" \
           "mesh --mesher fast $rig:--mesher: 'fast' is not one of bone-aware, greedy, naive" \
           "export-gltf $rig -o x.glb --format fbx:--format: 'fbx' is not one of glb, gltf"; do
  args=${cmd%%:--*}; want=${cmd#*:}
  set +e
  # shellcheck disable=SC2086
  "$voxrig" $args > /dev/null 2> "$tmp/err"; rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -qF -- "$want" "$tmp/err" || fail "'$args' did not say: $want (exit $rc: $(cat "$tmp/err"))"
done
"$voxrig" mesh -o "$tmp/c.obj" "$root/golden/files/rkc/seed/anasaur.rkc"
[ "$(grep -c '^g ' "$tmp/c.obj")" -ge 2 ] || fail "mesh of an RKCH character has no mesh groups"
"$voxrig" mesh "$root/golden/files/rkc/seed/anasaur.rkc" | grep -q '"quads"' || fail "RKCH mesh JSON"
echo "ok: capability CLI edges"
