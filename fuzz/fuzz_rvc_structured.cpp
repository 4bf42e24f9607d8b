// Fuzz target: RVC with a structure-aware mutator. LLVMFuzzerCustomMutator (fuzz_common.h
// mutate_rvc) parses the clip and edits it through the library's writer: a chunk's inflated
// payload (re-deflated per D4 or stored raw), META dims / loop mode, an occupancy bit with the
// colour runs repaired, extra key or delta frames, TIME, v1/v2, or a fresh valid clip
// (rvc_from_frames). Plain byte mutation cannot get past DEFLATE; this reaches the frame
// decoder's delta, working-set and validation paths (H6-H8). Checks: check_rvc_file.
#include "fuzz_common.h"

VOXRIG_STRUCTURED_FUZZ_TARGET(mutate_rvc, voxrig::fuzz::check_rvc_file)
