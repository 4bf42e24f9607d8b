// voxrig/text_stream.h — large text outputs (OBJ, the mesh protocol's JSON) written piece by
// piece under a byte cap, so a writer's memory does not follow its output and an output over
// the cap is refused before anything is written.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace voxrig {

/// The consumer of a streamed output: called with consecutive pieces of it, in order (each at
/// most about a MiB). A sink that cannot write (a full disk) records it and drops the rest; the
/// writer's cost stays bounded by its cap.
using OutputSink = std::function<void(std::string_view piece)>;

/// Text appended to buf() and handed to a sink in pieces of about 64 KiB (or only counted, with
/// no sink). A writer calls step() between records and stops when it returns false.
class TextStream {
 public:
  static constexpr size_t kPiece = size_t{64} << 10;
  /// `limit`: the byte count past which step() returns false; `sink` may be null (measure only).
  TextStream(uint64_t limit, const OutputSink* sink) : limit_(limit), sink_(sink) {
    buf_.reserve(kPiece + 1024);
  }
  /// Where the writer appends.
  std::string& buf() { return buf_; }
  /// Hands a full buffer on; false once the text is past the limit.
  bool step() {
    if (buf_.size() >= kPiece) flush();
    return total() <= limit_;
  }
  /// Bytes written so far (handed on or buffered).
  uint64_t total() const { return flushed_ + buf_.size(); }
  /// Hands the buffer on (the writer calls it last).
  void flush() {
    flushed_ += buf_.size();
    if (sink_ != nullptr && !buf_.empty()) (*sink_)(buf_);
    buf_.clear();
  }

 private:
  std::string buf_;
  uint64_t flushed_ = 0;
  uint64_t limit_;
  const OutputSink* sink_;
};

/// Writes the text of `produce` (bool produce(TextStream&): false when it stopped at the limit)
/// to `sink` only if it fits in `max_bytes`: a first run measures it (nothing kept), the second
/// writes it. Returns false, with `sink` never called, when it does not fit. Memory: two
/// buffers, whatever the size of the text; time: formatting it twice.
template <class Produce>
bool stream_within(uint64_t max_bytes, const OutputSink& sink, Produce&& produce) {
  {
    TextStream measure(max_bytes, nullptr);
    if (!produce(measure) || measure.total() > max_bytes) return false;
  }
  TextStream text(UINT64_MAX, &sink);
  produce(text);
  text.flush();
  return true;
}

}  // namespace voxrig
