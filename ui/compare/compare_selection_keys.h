// The selection keys in the compare view: Ctrl+C copies the selected
// slice's name, M marks the selection as a note, Shift+M drops a flag, as in
// the single view (ui/selection_keys.h), each on one side's trace: its notes
// are that trace's own (the app keeps them per trace, as for a trace shown
// alone) and are drawn on its timeline.
//
// Which side: Shift+M flags the timeline under the mouse; Ctrl+C and M act
// on the side whose selection (a slice or a range) was made last, or on the
// other side when only that one has a selection.
#pragma once

#include <optional>
#include <string>

#include "model/ids.h"
#include "model/time.h"
#include "ui/view_state.h"

namespace stepline::ui {

class CompareSelectionKeys {
 public:
  // Once a frame when the view has the keyboard and no text field does,
  // before the timelines are drawn. Returns the toast's notice ("A: Note 1
  // added ..."), "" when no key acted.
  std::string Handle(ViewState states[2]);
  // Once a frame after the timelines are drawn: a side whose selection
  // changed becomes the side the keys act on.
  void Track(const ViewState states[2]);
  // Forgets the sides' selections (new runs, swapped sides).
  void Reset() { *this = CompareSelectionKeys{}; }
  int side() const { return side_; }

 private:
  SliceId selected_[2];
  std::optional<TimeRange> range_[2];
  int side_ = 0;
};

}  // namespace stepline::ui
