// LoadMemoryPrompt: the modal that asks before loading a trace whose
// estimated memory (loaders/memory_estimate.h) exceeds what this process may
// still have: "Load anyway" or "Cancel". The session owns the question and
// acts on the answer; the CLI says the same in one line on stderr.
#pragma once

#include <cstdint>
#include <string>

namespace stepline::ui {

enum class LoadMemoryChoice : uint8_t { kNone = 0, kLoadAnyway, kCancel };

struct LoadMemoryPrompt {
  std::string warning;  // MemoryWarning: the file, what it needs, what is available; "" no question

  void Ask(std::string text);
  bool open() const { return !warning.empty(); }
  // Draws the modal while a question is open. Returns the answer on the
  // frame it is given (and closes the question), else kNone.
  LoadMemoryChoice Draw();

 private:
  bool open_requested_ = false;
};

}  // namespace stepline::ui
