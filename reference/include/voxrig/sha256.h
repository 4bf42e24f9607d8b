// voxrig/sha256.h — SHA-256 through OpenSSL's EVP API (never hand-written).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace voxrig {

/// A SHA-256 digest.
using Sha256 = std::array<uint8_t, 32>;

/// SHA-256 of `data`. Never fails on valid memory (an OpenSSL failure aborts: it is a bug).
Sha256 sha256(std::span<const uint8_t> data);

/// Incremental SHA-256 for digests over data written in pieces (dump digests).
class Sha256Stream {
 public:
  Sha256Stream();
  ~Sha256Stream();
  Sha256Stream(const Sha256Stream&) = delete;
  Sha256Stream& operator=(const Sha256Stream&) = delete;
  void update(std::span<const uint8_t> data);
  /// Finishes; the stream must not be updated afterwards.
  Sha256 finish();

 private:
  void* ctx_;
};

/// Lower-case hex of `bytes`.
std::string to_hex(std::span<const uint8_t> bytes);

}  // namespace voxrig
