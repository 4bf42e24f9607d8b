"""What the deliberately broken players share: the Python example reader with one mistake of its
pose evaluator switched on (voxrig_pose.BROKEN). Each pose_*.py names its mistake and calls run;
golden/tests/broken_testees_caught.sh checks that `voxrig conform --pose` catches each on exactly
the pose cases where that mistake changes a matrix beyond D19's tolerance."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import voxrig_pose  # noqa: E402
import voxrig_reader  # noqa: E402


def run(mistake):
    """Runs the example reader's main() with `mistake` switched on; returns its exit code."""
    if mistake not in voxrig_pose.BROKEN:
        raise KeyError("voxrig_pose.BROKEN has no mistake " + mistake)
    voxrig_pose.BROKEN[mistake] = True
    return voxrig_reader.main()
