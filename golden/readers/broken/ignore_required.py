#!/usr/bin/env python3
"""A deliberately broken reader: the Python example reader, but it ignores the REQUIRED flag of
unknown sections (it treats every tag as a cache). `golden/tests/broken_reader_caught.sh` checks that
`voxrig conform` catches it on exactly the cases that exercise that rule."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import voxrig_reader  # noqa: E402


class _EveryTag(tuple):
    """`tag in CACHE_TAGS` is true for every tag: unknown REQUIRED sections pass as caches."""

    def __contains__(self, tag):
        return True


voxrig_reader.CACHE_TAGS = _EveryTag(voxrig_reader.CACHE_TAGS)

if __name__ == "__main__":
    sys.exit(voxrig_reader.main())
