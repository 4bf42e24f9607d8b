// SHA-256 via OpenSSL EVP (the project never hand-writes a hash).
#include "voxrig/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <new>

namespace voxrig {

namespace {
// With the algorithm fixed, OpenSSL's digest calls fail only when its allocator does (memory is
// OpenSSL's malloc, or whatever CRYPTO_set_mem_functions installed: the OOM sweep's failing
// counter). That is std::bad_alloc, which every entry point turns into internal.out_of_memory
// (result.h guard_out_of_memory).
[[noreturn]] void openssl_failed() { throw std::bad_alloc(); }

// OpenSSL 3 builds its default library context once, on first use; when an allocation fails
// there it records the failure but its digest calls still use the half-built context and
// crash. Asking for the context first turns that into openssl_failed(). OpenSSL never retries
// the initialisation, so neither does this: a process whose first digest ran out of memory
// reports out_of_memory on every digest after.
void require_openssl() {
  static const bool ready = OSSL_LIB_CTX_get0_global_default() != nullptr;
  if (!ready) openssl_failed();
}
}  // namespace

Sha256 sha256(std::span<const uint8_t> data) {
  require_openssl();
  Sha256 out{};
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), out.data(), &len, EVP_sha256(), nullptr) != 1 ||
      len != out.size())
    openssl_failed();
  return out;
}

Sha256Stream::Sha256Stream() : ctx_((require_openssl(), EVP_MD_CTX_new())) {
  if (!ctx_) openssl_failed();
  if (EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));  // no destructor runs for a throwing ctor
    openssl_failed();
  }
}

Sha256Stream::~Sha256Stream() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256Stream::update(std::span<const uint8_t> data) {
  if (EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data.data(), data.size()) != 1)
    openssl_failed();
}

Sha256 Sha256Stream::finish() {
  Sha256 out{};
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), out.data(), &len) != 1) openssl_failed();
  return out;
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

}  // namespace voxrig
