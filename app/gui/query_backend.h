// The Query tab's backend (ui/query_panel.h QueryBackend): a QuerySession
// (query/) over the shown trace, saved queries in
// $XDG_CONFIG_HOME/stepline/queries.tsv (else ~/.config/stepline/), CSV
// files into the export folder.
#pragma once

#include <memory>
#include <string>

#include "ui/query_panel.h"

namespace stepline::app {

// A backend for `state->data`'s trace, made when the shown trace changes;
// null without a trace.
void UpdateQueryBackend(ui::ViewState* state);

}  // namespace stepline::app
