// DropPrompt: the modal that asks what a file dropped onto an open trace is
// for: "Compare with the current trace?" (Compare / Open instead / Cancel),
// or, while two runs are compared, which side it replaces. The session owns
// the question and acts on the answer.
#pragma once

#include <cstdint>
#include <string>

namespace stepline::ui {

enum class DropQuestion : uint8_t {
  kNone = 0,
  kCompareWithCurrent,  // one trace on screen: compare with it, or open the file instead?
  kReplaceWhich,        // two runs on screen: replace A, replace B, or open alone?
};
enum class DropChoice : uint8_t { kNone = 0, kCompare, kOpenInstead, kReplaceA, kReplaceB, kCancel };

struct DropPrompt {
  DropQuestion question = DropQuestion::kNone;
  std::string path;           // the dropped file
  std::string current_title;  // the trace on screen (for the question's text)

  void Ask(DropQuestion q, std::string dropped, std::string current);
  // Draws the modal while a question is open. Returns the answer on the
  // frame it is given (and closes the question), else kNone.
  DropChoice Draw();

 private:
  bool open_requested_ = false;
};

}  // namespace stepline::ui
