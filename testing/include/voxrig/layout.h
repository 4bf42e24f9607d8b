// golden_layout.h — the field locator of `voxrig golden`: names every field of a file.
//
// A case source addresses a mutation by field ("SKEL/joint[1]/parentId"); the regen tool resolves
// it to a byte offset here and records both in the manifest. The walk is lenient (it reads
// whatever is present, never validates, never allocates from declared counts beyond the bytes
// present), so it also locates fields in files that earlier mutations already broke.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace voxrig::golden {

/// One named byte range of a file.
struct Field {
  std::string path;
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// A length-prefixed region: a u32 length field that counts the bytes [content_start,
/// content_end). `fix_lengths` keeps these consistent after inserts and deletes.
struct Region {
  std::string length_path;
  uint64_t length_offset = 0;
  uint64_t content_start = 0;
  uint64_t content_end = 0;
  std::vector<std::string> end_paths;  ///< the "…/end" paths that name content_end
};

/// Every field and region the walk found, in file order.
struct Layout {
  std::vector<Field> fields;
  std::vector<Region> regions;
};

/// Walks `bytes` by its magic (VFP, RKCH, Kvxl, RVCL, Kwlk); unknown magic gives only "end".
///
/// Path vocabulary (documented for case authors in golden/README.md):
///   VFP   header/{magic,versionMajor,versionMinor,headerFlags,sectionCount,sourceHash},
///         section[i|TAG|TAG:k]{,/tag,/chunkId,/codec,/flags,/reserved,/length,/payload,/end},
///         TAG[:k]/… payload fields of VOX0, SKEL, VSKN, ANIM (see the .cpp), end
///   RKCH  header/{magic,version}, chunk[i|TAG|TAG:k]{,/tag,/len,/payload,/end}, META/…, MSHS/…,
///         BONS/…, CLPS/…, VCLP/… (embedded KV6 under MSHS/mesh[i]/kv6/, RVC under
///         VCLP/clip[i]/rvc/), end
///   KV6, RVC, KFA: their own field names (magic, xsiz, …; chunk[i]/…, META/…; hinge[i]/…).
Layout layout_of(std::span<const uint8_t> bytes);

/// Resolves `path` against `layout`. Besides the listed fields it understands computed paths:
/// "…/voxel[i]" and "…/voxel[x,y,z]" inside a VOX0 payload. On failure returns nullopt and
/// sets `why`.
std::optional<Field> find_field(const Layout& layout, std::span<const uint8_t> bytes,
                                std::string_view path, std::string& why);

}  // namespace voxrig::golden
