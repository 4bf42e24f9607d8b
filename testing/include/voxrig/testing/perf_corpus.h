// voxrig/testing/perf_corpus.h — the perf corpus `voxrig bench-reader` times a reader on: large
// VOX0 grids, 64-joint rigs with 30-key clips on every joint, RKCH characters with KV6 meshes and
// RVC voxel clips, built from the benchmarks' own generators (perf_inputs.h), so a figure of
// bench-reader and one of voxrig_bench describe the same bytes.
#pragma once

#include <vector>

#include "voxrig/conform/bench_reader.h"

namespace voxrig::perf {

/// The corpus, deterministically (about a second): vfp_static/{sphere,random50}/N,
/// vfp_rig/{random50,terrain}_j64/M and rkch/vclp/{1,10,50}, with N = 128 and M = 64, or with
/// `quick` (CI smoke runs) N = 32, M = 16 and 1 and 10 bones only.
std::vector<conform::BenchCase> reader_corpus(bool quick);

}  // namespace voxrig::perf
