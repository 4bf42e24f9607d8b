#!/usr/bin/env python3
"""A deliberately broken player: the Python example reader's pose, but it clamps when asked to loop.
Its one mistake is switched on by broken_pose.py, which every pose_*.py shares."""
import sys

import broken_pose  # beside this script: its folder is on sys.path when run as a script

if __name__ == "__main__":
    sys.exit(broken_pose.run("loop_is_clamp"))
