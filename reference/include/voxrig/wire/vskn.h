// voxrig/wire/vskn.h — the VSKN v1 section's wire layout, once: its section tag, version and
// encoding, the header's field offsets and the binding record (docs/spec/rig.md, "VSKN").
//
// Header <BBHHI32s32s>, 74 B, then bindingCount records <IH>, 6 B each:
// | off | size | type  | field                                 |
// |-----|------|-------|---------------------------------------|
// | 0   | 1    | u8    | version = 1                           |
// | 1   | 1    | u8    | encoding = 1 (SPARSE_INDEX_U16)       |
// | 2   | 2    | u16   | defaultJointId                        |
// | 4   | 2    | u16   | reserved = 0                          |
// | 6   | 4    | u32   | bindingCount; payload = 74 + 6n       |
// | 10  | 32   | bytes | baseSourceHash                        |
// | 42  | 32   | bytes | skeletonHash                          |
// | +0  | 4    | u32   | record: voxelOffset (x-fastest index) |
// | +4  | 2    | u16   | record: jointId                       |
//
// The codec's decoder and writer (vskn_codec.cpp), the VFP container's size check, the dump and
// the lenient walker and hash repair of voxrig::testing read the layout from here; which values
// are valid and in which order they are checked is the decoder's (voxrig/vfp.h). Constants only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace voxrig::wire::vskn {

/// The section's tag in the VFP section table.
inline constexpr std::array<char, 4> kTag = {'V', 'S', 'K', 'N'};
/// The only version and the only encoding (SPARSE_INDEX_U16) this reader reads.
inline constexpr uint8_t kVersion = 1, kEncodingSparseIndexU16 = 1;

/// Header field offsets within the payload; each hash is kHashSize bytes; the header is
/// kHeaderSize bytes.
inline constexpr size_t kVersionAt = 0, kEncodingAt = 1, kDefaultJointAt = 2, kReservedAt = 4;
inline constexpr size_t kBindingCountAt = 6, kBaseSourceHashAt = 10, kSkeletonHashAt = 42;
inline constexpr size_t kHashSize = 32, kHeaderSize = 74;

/// One binding record of kRecordSize bytes: voxelOffset u32, jointId u16.
inline constexpr size_t kRecordVoxelOffsetAt = 0, kRecordJointAt = 4, kRecordSize = 6;

/// The payload length of `binding_count` records (64-bit: the container checks it fits a u32).
constexpr uint64_t payload_size(uint64_t binding_count) {
  return kHeaderSize + kRecordSize * binding_count;
}

static_assert(kSkeletonHashAt + kHashSize == kHeaderSize);

}  // namespace voxrig::wire::vskn
