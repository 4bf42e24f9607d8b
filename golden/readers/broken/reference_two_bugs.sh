#!/bin/sh
# A deliberately broken reader that is fast: the reference reader (the voxrig binary given as the
# first argument) with two bugs, so a conform report has failures in two spec sections:
#   1. it ignores the REQUIRED flag of unknown sections (accepts with a stub dump), and
#   2. it reports skel.parent_cycle as skel.parent_missing.
# usage (conform appends `dump --profile P FILE`):
#   voxrig conform --reader "sh golden/readers/broken/reference_two_bugs.sh /path/to/voxrig"
voxrig=$1
shift
out=$("$voxrig" "$@")
rc=$?
case "$out" in
  *'"vfp.section.unknown_required"'*)
    printf '{"schema": "voxrig-dump/2", "format": "vfp", "sections": []}\n'
    exit 0 ;;
  *'"skel.parent_cycle"'*)
    printf '{"error": "skel.parent_missing"}\n'
    exit 1 ;;
esac
printf '%s\n' "$out"
exit $rc
