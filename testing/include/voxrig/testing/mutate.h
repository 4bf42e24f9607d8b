// voxrig/testing/mutate.h — the structure-aware mutators shared by the structured fuzz targets
// (fuzz/fuzz_*_structured.cpp, through fuzz_common.h) and `voxrig fuzz-reader`, and the plain
// byte mutator the latter uses where libFuzzer's is not linked.
//
// A structure-aware mutator edits inside one section / chunk / blob / inflated payload and then
// repairs the framing (lengths, counts, the VFP sourceHash, baseSourceHash and skeletonHash, RKCH
// blob lists and clip bodies, RVC deflate), so mutated inputs reach the semantic rules behind
// the framing and hash checks. Which bytes change inside a region is left to a ByteMutator.
// All are deterministic for the same input, seed and byte mutator; safe on any bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace voxrig::testing {

/// libFuzzer's LLVMFuzzerMutate contract: mutates the `size` bytes at `data` in place (the
/// buffer holds `max_size`), returns the new size (1..max_size).
using ByteMutator = std::function<size_t(uint8_t* data, size_t size, size_t max_size)>;

/// The LLVMFuzzerCustomMutator bodies. mutate_vfp edits one section (payload bytes, header
/// fields, tag, or the section list), recounts SKEL/VSKN/ANIM and rebinds sourceHash /
/// baseSourceHash / skeletonHash; mutate_rkc edits one chunk (MSHS/VCLP blob lists, CLPS records
/// with skeletal counts repaired against the bone count, BONS recount with parents in range)
/// and fixes every length; mutate_rvc parses the clip and edits chunks, META, frames (colour
/// runs repaired), TIME or version through the library's writer (rvc_update_*, rvc_make_chunk),
/// or builds a fresh valid clip. An input they cannot split gets `bytes` on the whole input.
/// The buffer holds `max_size` bytes; returns the new size. Allocates copies of the input.
/// mutate_vfp rebinds the hashes 15 times in 16; with `rebind_hashes` false never, so the
/// edited payload and the stale hashes meet (what a reader that checks a hash too early or too
/// late gets wrong).
size_t mutate_vfp(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                  const ByteMutator& bytes, bool rebind_hashes = true);
size_t mutate_rkc(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                  const ByteMutator& bytes);
size_t mutate_rvc(uint8_t* data, size_t size, size_t max_size, unsigned seed,
                  const ByteMutator& bytes);

/// A small deterministic byte mutator in libFuzzer's style for builds without libFuzzer: one to
/// four of bit flip, random byte, interesting 8/16/32-bit value, insert / erase / duplicate a
/// run of bytes, cut the tail. Returns the new size (1..max_size; an empty input grows one
/// byte). Safe on any bytes; never allocates.
size_t mutate_plain_bytes(uint8_t* data, size_t size, size_t max_size, uint64_t seed);

/// A ByteMutator that runs mutate_plain_bytes with a fresh seed per call drawn from `seed`.
ByteMutator plain_byte_mutator(uint64_t seed);

/// A valid 1x1x1 one-frame RVC blob (v2, raw chunks) and the seed's 46-byte unit KV6 (what the
/// RKCH blob-list mutator inserts, and the fuzz targets' fixed contexts hold).
std::vector<uint8_t> tiny_rvc();
std::vector<uint8_t> unit_kv6();

}  // namespace voxrig::testing
