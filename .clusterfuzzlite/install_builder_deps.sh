#!/bin/bash -eu
# What the fuzz build needs on top of OSS-Fuzz's base-builder image, for both images that run
# .clusterfuzzlite/build.sh: ClusterFuzzLite's (.clusterfuzzlite/Dockerfile) and OSS-Fuzz's
# (oss-fuzz/Dockerfile). CMake >= 3.25 (newer than the image's), OpenSSL and zlib (linked
# statically), nlohmann/json, Ninja; zip packs the seed corpora.
apt-get update
apt-get install -y --no-install-recommends libssl-dev zlib1g-dev nlohmann-json3-dev ninja-build zip
pip3 install --no-cache-dir 'cmake>=3.25'
