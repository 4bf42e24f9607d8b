// Records inside payloads (voxrig/testing/layout.h): the complete SKEL / VSKN / ANIM / BONS records
// a payload holds whatever its count says, and RKCH MSHS / VCLP blob lists and CLPS records as
// editable bytes.
// Lenient like the rest of the walk; reads with the codec's ByteReader.
#include <algorithm>
#include <cstring>

#include "layout_walker.h"
#include "voxrig/byte_writer.h"

namespace voxrig::testing {

namespace detail {

std::vector<Frame> blob_frames(std::span<const uint8_t> b, uint64_t start, uint64_t end) {
  std::vector<Frame> r;
  ByteReader in(b.subspan(start, end - start), start, ErrorCode::RkcTruncated);
  uint32_t n = 0;
  if (!in.try_u32(n)) return r;
  for (; n > 0 && in.remaining() >= 4; --n) {
    Frame f;
    f.offset = f.length_offset = in.offset();
    in.try_u32(f.declared);
    f.payload_start = in.offset();
    (void)in.skip(std::min<uint64_t>(f.declared, in.remaining()), {});
    f.payload_end = in.offset();
    r.push_back(f);
  }
  return r;
}

}  // namespace detail

namespace {

using namespace detail;

// The size of the record at `at` when it is complete inside `b`, else 0. Reads lengths only
// where they are present; every sum is 64-bit (counts are at most 32-bit, records bounded by b).
uint64_t record_size(std::string_view tag, std::span<const uint8_t> b, uint64_t at) {
  const uint64_t left = b.size() - at;
  const uint8_t* p = b.data() + at;
  if (tag == "SKEL")
    return left >= kJointPrefix && left - kJointPrefix >= p[kJointNameLenAt]
               ? kJointPrefix + p[kJointNameLenAt]
               : 0;
  if (tag == "VSKN") return left >= kBindingSize ? kBindingSize : 0;
  if (tag == "ANIM") {  // prefix, name, tracks (prefix + keys)
    if (left < kClipPrefix) return 0;
    uint64_t q = kClipPrefix + p[kClipNameLenAt];
    for (uint32_t t = load_u16(p + 2); t > 0; --t) {
      if (q > left || left - q < kTrackPrefix) return 0;
      q += kTrackPrefix + uint64_t{load_u32(p + q + kTrackKeyCountAt)} * kKeySize;
    }
    return q <= left ? q : 0;
  }
  // BONS: name_len u16, name, attach_count u32, attachments, hinge.
  if (left < 2) return 0;
  uint64_t q = 2 + uint64_t{load_u16(p)};
  if (q > left || left - q < 4) return 0;
  q += 4 + uint64_t{load_u32(p + q)} * kAttachmentSize;
  if (q > left || left - q < kHingeSize) return 0;
  return q + kHingeSize;
}

}  // namespace

std::optional<Records> complete_records(std::string_view tag, std::span<const uint8_t> payload) {
  Records r;
  if (tag == "SKEL")
    r = {2, 2, kSkelFixed, {}};
  else if (tag == "VSKN")
    r = {6, 4, kVsknFixed, {}};
  else if (tag == "ANIM")
    r = {2, 2, kAnimFixed, {}};
  else if (tag == "BONS")
    r = {0, 4, 4, {}};
  else
    return std::nullopt;
  if (payload.size() < r.first) return std::nullopt;
  for (uint64_t at = r.first; at < payload.size();) {
    const uint64_t n = record_size(tag, payload, at);
    if (n == 0) break;
    r.records.push_back({at, at + n});
    at += n;
  }
  return r;
}

std::optional<Records> recount_records(std::string_view tag, Bytes& payload) {
  auto r = complete_records(tag, payload);
  if (!r) return r;
  payload.resize(r->end());
  ByteWriter count;
  if (r->count_size == 2)
    count.u16(uint16_t(r->records.size()));
  else
    count.u32(uint32_t(r->records.size()));
  std::copy(count.data().begin(), count.data().end(), payload.begin() + int64_t(r->count_offset));
  return r;
}

BlobList split_blobs(std::span<const uint8_t> payload) {
  BlobList l;
  uint64_t end = 0;
  for (const Frame& f : blob_frames(payload, 0, payload.size())) {
    l.blobs.emplace_back(payload.begin() + int64_t(f.payload_start),
                         payload.begin() + int64_t(f.payload_end));
    end = f.payload_end;
  }
  if (payload.size() >= 4 && end == 0) end = 4;
  l.rest.assign(payload.begin() + int64_t(end), payload.end());
  return l;
}

Bytes join_blobs(const BlobList& list) {
  ByteWriter w;
  w.u32(uint32_t(list.blobs.size()));
  for (const Bytes& blob : list.blobs) {
    w.u32(uint32_t(blob.size()));
    w.bytes(blob);
  }
  w.bytes(list.rest);
  return w.take();
}

std::vector<ClipRecord> split_clips(std::span<const uint8_t> payload) {
  std::vector<ClipRecord> r;
  ByteReader in(payload, 0, ErrorCode::RkcTruncated);
  uint32_t n = 0;
  in.try_u32(n);
  for (uint16_t name_len = 0; n > 0 && in.try_u16(name_len); --n) {
    ClipRecord c;
    std::span<const uint8_t> bytes;
    in.try_bytes(std::min<size_t>(name_len, in.remaining()), bytes);
    c.name.assign(bytes.begin(), bytes.end());
    uint32_t len = 0;
    if (in.remaining() < 6) break;
    in.try_u16(c.kind);
    in.try_u32(len);
    in.try_bytes(std::min<size_t>(len, in.remaining()), bytes);
    c.body.assign(bytes.begin(), bytes.end());
    r.push_back(std::move(c));
  }
  return r;
}

Bytes join_clips(std::span<const ClipRecord> records) {
  ByteWriter w;
  w.u32(uint32_t(records.size()));
  for (const ClipRecord& c : records) {
    w.u16(uint16_t(c.name.size()));
    w.bytes(c.name);
    w.u16(c.kind);
    w.u32(uint32_t(c.body.size()));
    w.bytes(c.body);
  }
  return w.take();
}

}  // namespace voxrig::testing
