"""voxrig_mutants.py — reading mutants of the example reader, one per spec statement.

A statement of docs/spec/ that has a second plausible reading (a check order, an edge, a limit, a
default) is only pinned when some golden case fails a reader that takes that other reading. Each
mutant below is this reader (voxrig_reader.py, voxrig_compile.py, voxrig_pose.py) with exactly
one statement read the other way, switched on by the environment:

    VOXRIG_MUTANT=D15.pairwise_sum python3 voxrig_reader.py dump --profile vfp-rig FILE

The switch is one guarded branch at the one place that implements the statement
(`if mutant("D15.pairwise_sum"): ...`). A mutant's name starts with the rule ID of the statement it
flips (golden/rules.json, anchored in docs/spec/). The CTest golden_reading_mutants
(golden/tests/reading_mutants.py) runs `voxrig conform` with every mutant on the golden cases of
its rule and requires each one to fail at least one case; a mutant that survives names a
statement the corpus does not pin yet: add the case that tells the two readings apart.

A new statement with a plausible second reading gets a row here, a branch in the reader and a
case. The reader covers VFP only (reader, compiler, player), so the RKCH family has no mutants.
"""

import os
import sys

# name, capability (dump | writer | compile | pose), profiles, pose case filter, the other reading.
# dump/writer/compile mutants run on the rule's reader or compile cases (voxrig rules --coverage);
# pose mutants on the pose cases of the rule whose id starts with the filter.
MUTANTS = [
    # --- the container (docs/spec/vfp.md) ---
    ("VFP-HDR-1.whole_header_first", "dump", "vfp-static", None,
     "a file shorter than the 44-byte header is vfp.header.truncated before any field is checked"),
    ("VFP-HDR-4.minor_must_be_3", "dump", "vfp-static", None,
     "a VFP 1.3 reader accepts versionMinor 3 only"),
    ("LIM-1.limit_exclusive", "dump", "vfp-static", None,
     "a sectionCount equal to the limit is already over it"),
    ("FP-7.sections_counted_up_front", "dump", "vfp-static", None,
     "sectionCount x 16 bytes must be present right after the header (a bytes check on the count)"),
    ("VFP-SEC-1.tag_before_length", "dump", "vfp-static", None,
     "a partial section header's tag is checked before its 16 bytes are"),
    ("VFP-SEC-2.printable_tag", "dump", "vfp-static", None,
     "a tag is four printable ASCII bytes (0x20-0x7E), not [A-Z0-9]{4}"),
    ("FP-7.payload_fit_first", "dump", "vfp-static", None,
     "a section's payload length is checked before its flags and reserved fields"),
    ("FP-7.trailing_after_vox0", "dump", "vfp-static", None,
     "trailing bytes are looked for after the VOX0 checks (steps 4-7), not before"),
    ("FP-7.required_at_scan", "dump", "vfp-static", None,
     "an unknown REQUIRED section is rejected while its header is scanned (step 2)"),
    ("FP-7.hash_before_vox0_payload", "dump", "vfp-static", None,
     "sourceHash is checked before the VOX0 payload"),
    ("VFP-VOX0-2.header_before_duplicate", "dump", "vfp-static", None,
     "the first VOX0's section header is checked before a second VOX0 is looked for"),
    ("VFP-VOX0-3.codec_before_chunk_id", "dump", "vfp-static", None,
     "the VOX0 codec is checked before its chunkId"),
    ("VFP-VOX0-4.required_before_codec", "dump", "vfp-static", None,
     "the VOX0 REQUIRED flag is checked before its codec"),
    ("VFP-SEC-8.optional_codec_checked", "dump", "vfp-static", None,
     "an unknown optional section with a codec other than 0 is vfp.section.unsupported_codec"),
    ("FP-4.required_cache_any_codec", "dump", "vfp-static", None,
     "a REQUIRED cache section is opaque, so its codec is never checked"),
    ("D11.static_skips_required_rig", "dump", "vfp-static", None,
     "vfp-static skips REQUIRED rig sections at step 5 as vfp-rig does"),
    ("FP-3.static_checks_rig_codec", "dump", "vfp-static", None,
     "vfp-static rejects a rig section with a codec other than 0 (rig.section_header)"),
    # --- the VOX0 payload ---
    ("VOX0-1.whole_header_first", "dump", "vfp-static", None,
     "a VOX0 payload shorter than its 12-byte header is vox0.truncated before any field is checked"),
    ("VOX0-3.reserved_u16_in_byte_order", "dump", "vfp-static", None,
     "the u16 at offset 10 is checked in byte order, right after sizeZ"),
    ("VOX0-5.zero_size_after_all_sizes", "dump", "vfp-static", None,
     "a zero size is rejected once all three sizes are read"),
    ("LIM-2.length_before_limit", "dump", "vfp-static", None,
     "the exact payload length is checked before the voxel limit"),
    ("VOX0-7.index_up_to_count", "dump", "vfp-static", None,
     "a voxel value equal to paletteCount is a valid index"),
    # --- the rig (docs/spec/rig.md, the payload orders of vfp.md) ---
    ("RIG-1.headers_before_duplicates", "dump", "vfp-rig", None,
     "the rig section headers are checked before rig duplicates"),
    ("RIG-2.completeness_before_headers", "dump", "vfp-rig", None,
     "rig completeness is checked before the rig section headers"),
    ("SKEL-1.joint_table_up_front", "dump", "vfp-rig", None,
     "jointCount x 48 bytes must be present right after jointCount"),
    ("SKEL-6.ids_may_repeat", "dump", "vfp-rig", None,
     "jointIds only have to be non-decreasing"),
    ("SKEL-7.parent_below_minus1_when_read", "dump", "vfp-rig", None,
     "a parentId below -1 is rejected when the field is read"),
    ("SKEL-7.cycles_before_missing", "dump", "vfp-rig", None,
     "parent cycles are looked for before missing parents"),
    ("SKEL-10.unit_before_finite", "dump", "vfp-rig", None,
     "the unit-quaternion rule runs on the rotation before its components' finiteness"),
    ("SKEL-12.parents_before_trailing", "dump", "vfp-rig", None,
     "parents are checked before the bytes after the last joint"),
    ("D15.right_to_left_sum", "dump", "vfp-rig", None,
     "the norm is sqrt(x*x + (y*y + (z*z + w*w)))"),
    ("D15.pairwise_sum", "dump", "vfp-rig", None,
     "the norm is sqrt((x*x + y*y) + (z*z + w*w))"),
    ("D15.binary32", "dump", "vfp-rig", None,
     "the norm is computed in binary32 and compared with binary32 1e-3"),
    ("D15.squared_norm", "dump", "vfp-rig", None,
     "the squared norm is compared instead: |x*x + y*y + z*z + w*w - 1| <= 2e-3"),
    ("VSKN-1.whole_header_first", "dump", "vfp-rig", None,
     "a VSKN payload shorter than its 74-byte header is vskn.truncated before any field"),
    ("VSKN-5.length_after_hashes", "dump", "vfp-rig", None,
     "the exact VSKN length is checked after the two hashes"),
    ("VSKN-11.joint_before_empty", "dump", "vfp-rig", None,
     "a record's jointId is looked at before whether its voxel is empty"),
    ("ANIM-1.keys_before_table_check", "dump", "vfp-rig", None,
     "an ANIM track's keys are read one by one with no keyCount x 44 check up front"),
    ("ANIM-8.existence_before_order", "dump", "vfp-rig", None,
     "a track's jointId must exist before its order is checked"),
    ("ANIM-11.ranges_before_orders", "dump", "vfp-rig", None,
     "every key time of a track is range-checked before any is order-checked"),
    ("ANIM-12.orders_before_ranges", "dump", "vfp-rig", None,
     "every key time of a track is order-checked before any is range-checked"),
    ("LIM-5.bytes_before_limit", "dump", "vfp-rig", None,
     "the key table's bytes are checked before keyCount's limit"),
    ("FP-6.duration_exclusive", "dump", "vfp-rig", None,
     "a key time must be below durationMs"),
    # --- the writer (docs/spec/writers.md) ---
    ("D1.canonical_rig_before_caches", "writer", "vfp-static vfp-rig", None,
     "canonicalize puts SKEL, VSKN and ANIM right after VOX0, before the caches"),
    # --- the compiler (docs/spec/compile.md) ---
    ("JSON-2.duplicate_key_last_wins", "compile", "vfp-rig", None,
     "a key repeated in an object keeps its last value"),
    ("JSON-5.parent_null_is_root", "compile", "vfp-rig", None,
     "\"parent\": null means a root"),
    ("JSON-9.name_256_bytes", "compile", "vfp-rig", None,
     "a name may hold 256 UTF-8 bytes"),
    ("JSON-11.last_voxel_wins", "compile", "vfp-rig", None,
     "a voxel listed twice takes its last palette index"),
    ("JSON-17.default_bindings_dropped_first", "compile", "vfp-rig", None,
     "bindings to the default joint are dropped before they are checked"),
    ("JSON-20.keys_sorted", "compile", "vfp-rig", None,
     "the compiler sorts a track's keys by time instead of rejecting an unsorted track"),
    ("JSON-26.key_defaults_identity", "compile", "vfp-rig", None,
     "a key's missing translation, rotation or scale is the identity, not the joint's bind pose"),
    # --- the player (docs/spec/evaluation.md) ---
    ("EVAL-1.untracked_joint_identity", "pose", "vfp-rig", "pose/edges/0/linear/clamp/",
     "a joint without a track in the clip takes the identity, not its bind TRS"),
    ("EVAL-1.before_first_key_bind", "pose", "vfp-rig", "pose/edges/0/linear/clamp/",
     "before a track's first key the joint keeps its bind TRS"),
    ("D19.loop_end_is_duration", "pose", "vfp-rig", "pose/seed/rig/0/linear/loop/",
     "loop maps t = duration to the duration, not to 0"),
    ("D19.no_shortest_arc", "pose", "vfp-rig", "pose/edges/1/slerp/clamp/",
     "nlerp and slerp interpolate q0 to q1 without negating q1 when the dot product is negative"),
    ("EVAL-2.parents_listed_first", "pose", "vfp-rig", "pose/rig/edges/0/linear/clamp/",
     "model matrices are composed in SKEL order, a parent listed later counting as not yet posed"),
]

NAMES = frozenset(m[0] for m in MUTANTS)
ACTIVE = os.environ.get("VOXRIG_MUTANT", "")


def check_active():
    """Exit 2 (a usage error) when VOXRIG_MUTANT names no mutant, so a typo never runs the
    correct reader under a mutant's name."""
    if ACTIVE and ACTIVE not in NAMES:
        sys.stderr.write("VOXRIG_MUTANT=%s is not a mutant of voxrig_mutants.py\n" % ACTIVE)
        sys.exit(2)


def mutant(name):
    """True when the mutant `name` is switched on. `name` must be a row of MUTANTS."""
    assert name in NAMES, name
    return ACTIVE == name


if __name__ == "__main__":
    for name, capability, profiles, filt, reading in MUTANTS:
        print("%-40s %-8s %s" % (name, capability, reading))
