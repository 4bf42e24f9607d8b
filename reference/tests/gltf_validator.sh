#!/usr/bin/env bash
# The glTF export of the seed's rig example passes the Khronos glTF validator, and its structure
# (nodes, hierarchy, meshes, animations, channels) is what the rig says, checked from the GLB's
# JSON chunk without rendering anything.
# usage: reference/tests/gltf_validator.sh VOXRIG_EXE
set -euo pipefail
voxrig=${1:?usage: gltf_validator.sh VOXRIG_EXE}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
validator="$root/tools/node_modules/gltf-validator"
if ! command -v node >/dev/null || [ ! -d "$validator" ]; then
  echo "FAIL: node or the gltf-validator npm package is missing; run scripts/install-deps.sh"
  exit 1
fi
# golden/sources/vfp/models/seed_rig.json is the seed's example (shared/design/examples) verbatim.
"$voxrig" compile "$root/golden/sources/vfp/models/seed_rig.json" -o "$tmp/seed.vfp"
"$voxrig" export-gltf "$tmp/seed.vfp" -o "$tmp/linear.glb"
"$voxrig" export-gltf "$tmp/seed.vfp" -o "$tmp/step.glb" --step
# The .gltf text form (the buffer as a data URI) and a static model, validated the same way.
"$voxrig" export-gltf "$tmp/seed.vfp" --format gltf -o "$tmp/text.gltf"
"$voxrig" mesh --profile vfp-static --format gltf -o "$tmp/static.gltf" "$tmp/seed.vfp"
for f in linear.glb step.glb text.gltf static.gltf; do
  NODE_PATH="$root/tools/node_modules" node "$root/reference/tests/gltf_validate.js" "$tmp/$f"
done
python3 - "$tmp/linear.glb" "$tmp/step.glb" <<'PY'
import json, struct, sys
for path, interp in zip(sys.argv[1:], ("LINEAR", "STEP")):
    data = open(path, "rb").read()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF" and version == 2 and length == len(data), "bad GLB header"
    clen, ctype = struct.unpack_from("<II", data, 12)
    assert ctype == 0x4E4F534A, "first chunk is not JSON"
    g = json.loads(data[20:20 + clen])
    # The seed rig: joints Root and Arm (Arm a child of Root), one clip "wave" animating Arm.
    names = [n.get("name") for n in g["nodes"]]
    assert names.count("Root") == 1 and names.count("Arm") == 1, names
    root = g["nodes"][names.index("Root")]
    assert names.index("Arm") in root.get("children", []), "Arm is not a child of Root"
    assert all("mesh" in g["nodes"][names.index(n)] for n in ("Root", "Arm")), "joint without mesh"
    assert len(g["animations"]) == 1 and g["animations"][0]["name"] == "wave", g["animations"]
    ch = g["animations"][0]["channels"]
    assert {c["target"]["path"] for c in ch} == {"translation", "rotation", "scale"}, ch
    assert all(c["target"]["node"] == names.index("Arm") for c in ch), "channel not on Arm"
    assert all(s["interpolation"] == interp for s in g["animations"][0]["samplers"])
print("ok: seed rig glTF export (LINEAR and STEP) is valid; 2 joints, 1 animation, 3 channels")
PY
