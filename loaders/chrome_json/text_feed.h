// TextFeed: the input of the Chrome JSON loader (chrome_json_loader.cpp),
// in a header of its own so that file stays under 600 lines.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#include "loaders/byte_source.h"
#include "loaders/decode_stream.h"
#include "loaders/load_error.h"
#include "model/result.h"

namespace stepline::loaders {

// Where the text comes from: a decoded buffer, or a DecodeStream still being
// written (then, once the whole text is needed, the stream's result).
class TextFeed {
 public:
  explicit TextFeed(const DecodedInput& whole) : whole_(&whole) {}
  TextFeed(DecodeStream* stream, DecodedInput* finished) : stream_(stream), finished_(finished) {}

  // The text final so far: at least `n` bytes unless it ends sooner;
  // `*final` when it is the whole text.
  std::string_view Next(uint64_t n, bool* final) {
    if (whole_ != nullptr) {
      *final = true;
      return whole_->bytes.view();
    }
    std::string_view view = stream_->WaitFor(n);
    *final = stream_->done();
    return *final ? stream_->WaitForEnd() : view;  // done: the count read after it is the last
  }
  // The whole decoded input; waits for the decoder. Its error (the bomb
  // limit, a cancel) when decoding failed.
  Result<const DecodedInput*, LoadError> All() {
    if (whole_ == nullptr) {
      auto taken = stream_->TakeResult();
      if (!taken) return MakeUnexpected(taken.error());
      *finished_ = std::move(taken).value();
      finished_->bytes.MarkSingleReader();  // the pages already released read as zero: same contract
      whole_ = finished_;
    }
    return whole_;
  }
  bool streaming() const { return whole_ == nullptr; }
  uint64_t size_hint() const { return whole_ != nullptr ? whole_->bytes.size() : stream_->size_hint(); }
  void Release(uint64_t begin, uint64_t end) const {
    if (whole_ != nullptr) {
      whole_->bytes.ReleasePages(begin, end);
    } else {
      stream_->Release(begin, end);
    }
  }

 private:
  const DecodedInput* whole_ = nullptr;
  DecodeStream* stream_ = nullptr;
  DecodedInput* finished_ = nullptr;
};

}  // namespace stepline::loaders
