// The XLA modules table (XProf's HLO module stats): each module with its
// executions, total and mean time and its device ops. Shown above the device
// ops of XLA traces; nothing for other traces. Also the device-kind words of
// the panels' titles ("Device ops", "TPU busy").
#pragma once

#include <string>

#include "model/analysis/report.h"

namespace stepline::ui {

// A collapsible "XLA modules (N)" section; draws nothing without modules.
void DrawXlaModulesTable(const analysis::Report& report);
// "Device ops" when the primary device is not a GPU (a TPU, another
// accelerator), else "GPU kernels": the kernels tab's and panel's title.
const char* DeviceOpsTitle(const analysis::Report& report);
// "GPU", "TPU" or "Device": the primary device's word in card and chart titles.
std::string DeviceWord(const analysis::Report& report);

}  // namespace stepline::ui
