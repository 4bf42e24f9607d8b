// Bounded whole-file and stdin reading (voxrig/conform/file_input.h).
#include "voxrig/conform/file_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>

namespace voxrig::conform {
namespace {

// Why a path that opened is not something to read whole: nullptr for a regular file.
const char* not_regular(mode_t mode) {
  if (S_ISREG(mode)) return nullptr;
  if (S_ISDIR(mode)) return std::strerror(EISDIR);
  if (S_ISFIFO(mode)) return "is a FIFO, not a regular file (pipe it to stdin with -)";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is a device, not a regular file";
}

// Reads a regular file of `size` bytes into `bytes` (reserved exactly, read in place); false
// with errno set on a read error, or with errno 0 when it holds more than max_bytes (it may
// grow while it is read).
bool read_regular(int fd, uint64_t size, std::vector<uint8_t>& bytes, size_t max_bytes) {
  if (size > max_bytes) {
    errno = 0;
    return false;
  }
  bytes.resize(static_cast<size_t>(size) + 1);  // one byte more shows a file that grew
  size_t done = 0;
  while (true) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    done += static_cast<size_t>(n);
    if (done == bytes.size()) {
      if (done > max_bytes) {
        errno = 0;
        return false;
      }
      const size_t past_max = max_bytes < SIZE_MAX ? max_bytes + 1 : SIZE_MAX;
      bytes.resize(std::min(done + done / 2 + 1, past_max));
    }
  }
  bytes.resize(done);
  return true;
}

// Reads a stream of unknown length (stdin: a pipe, a device) in 1 MiB blocks, joined once at
// the end: nothing is copied while it grows, and an input past max_bytes is dropped before any
// join, so /dev/zero costs max_bytes once. Errors as read_regular.
bool read_stream(int fd, std::vector<uint8_t>& bytes, size_t max_bytes) {
  constexpr size_t kBlock = size_t{1} << 20;
  std::vector<std::unique_ptr<uint8_t[]>> blocks;
  size_t total = 0, used = kBlock;  // bytes in the last block
  while (true) {
    if (used == kBlock) {
      blocks.emplace_back(new uint8_t[kBlock]);
      used = 0;
    }
    const ssize_t n = ::read(fd, blocks.back().get() + used, kBlock - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    used += static_cast<size_t>(n);
    total += static_cast<size_t>(n);
    if (total > max_bytes) {
      errno = 0;
      return false;
    }
  }
  bytes.reserve(total);
  for (size_t i = 0; i < blocks.size(); ++i) {
    const uint8_t* p = blocks[i].get();
    bytes.insert(bytes.end(), p, p + (i + 1 < blocks.size() ? kBlock : used));
    blocks[i].reset();  // so the join holds the input about once
  }
  return true;
}

// The reason of a failed read_regular / read_stream, from errno.
std::string read_failure(size_t max_bytes) {
  return errno == 0 ? "over the input limit of " + std::to_string(max_bytes) + " bytes"
                    : std::string(std::strerror(errno));
}

}  // namespace

std::optional<std::vector<uint8_t>> read_regular_file(const std::string& path, size_t max_bytes,
                                                      std::string* why) {
  std::string reason;
  std::vector<uint8_t> bytes;
  // O_NONBLOCK: opening a FIFO with no writer would block forever; fstat then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    reason = std::strerror(errno);
  } else {
    struct stat st {};
    const char* bad = ::fstat(fd, &st) != 0 ? std::strerror(errno) : not_regular(st.st_mode);
    if (bad)
      reason = bad;
    else if (!read_regular(fd, static_cast<uint64_t>(st.st_size), bytes, max_bytes))
      reason = read_failure(max_bytes);
    ::close(fd);
  }
  if (reason.empty()) return bytes;
  if (why) *why = std::move(reason);
  return std::nullopt;
}

std::optional<std::vector<uint8_t>> read_stdin(size_t max_bytes, std::string* why) {
  std::vector<uint8_t> bytes;
  struct stat st {};
  const bool regular = ::fstat(0, &st) == 0 && S_ISREG(st.st_mode);
  if (regular ? read_regular(0, static_cast<uint64_t>(st.st_size), bytes, max_bytes)
              : read_stream(0, bytes, max_bytes))
    return bytes;
  if (why) *why = read_failure(max_bytes);
  return std::nullopt;
}

}  // namespace voxrig::conform
