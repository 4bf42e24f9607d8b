#!/usr/bin/env python3
"""A deliberately broken player: the Python example reader's pose, but it uses nlerp when asked for slerp.
golden/tests/broken_testees_caught.sh checks that `voxrig conform --pose` catches it on exactly
the pose cases where that mistake changes a matrix beyond D19's tolerance."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import voxrig_pose  # noqa: E402
import voxrig_reader  # noqa: E402

voxrig_pose.BROKEN["slerp_is_nlerp"] = True

if __name__ == "__main__":
    sys.exit(voxrig_reader.main())
