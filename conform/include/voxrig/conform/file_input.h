// voxrig/conform/file_input.h — the one bounded way voxrig reads a whole file or stdin: the corpus
// functions, the runner (a reader's output files) and every CLI command read through here, so a
// FIFO, a directory or a file past the limit fails the same way, at once, with the same reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace voxrig::conform {

/// The largest file the corpus functions (and a run, for a reader's output file) read: 1 GiB.
inline constexpr size_t kMaxCorpusFile = size_t{1} << 30;

/// The bytes of the regular file at `path`, read whole. It is opened non-blocking and checked
/// with fstat before any read, so a directory, a FIFO, a socket or a device fails at once and
/// never blocks; a file over `max_bytes` fails before it is read (or as soon as it grows past
/// it). On failure returns nullopt and, when `why` is given, sets it to the reason: strerror's
/// text, "is a FIFO, not a regular file (pipe it to stdin with -)", "is a socket, not a regular
/// file", "is a device, not a regular file", or "over the input limit of N bytes". Allocates the
/// bytes (a regular file's exactly); std::bad_alloc when that fails.
std::optional<std::vector<uint8_t>> read_regular_file(const std::string& path,
                                                      size_t max_bytes = kMaxCorpusFile,
                                                      std::string* why = nullptr);

/// Standard input read whole, whatever it is (a pipe, a file, a terminal): a regular file as
/// read_regular_file, anything else in 1 MiB blocks joined once at the end, so an endless input
/// (/dev/zero) costs `max_bytes` once and fails as soon as it passes them. Failures and `why` as
/// read_regular_file.
std::optional<std::vector<uint8_t>> read_stdin(size_t max_bytes, std::string* why = nullptr);

}  // namespace voxrig::conform
