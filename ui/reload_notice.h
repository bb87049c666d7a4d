// The offer to reload files that changed on disk, as one line: Reload,
// Dismiss and the notice (FileWatch's ChangeNotice). The ranks view draws it
// above its table; the session acts on the answer.
#pragma once

#include <cstdint>
#include <string>

namespace stepline::ui {

enum class ReloadNoticeChoice : uint8_t { kNone = 0, kReload, kDismiss };

// Draws nothing and returns kNone when `offer` is empty.
ReloadNoticeChoice DrawReloadNotice(const std::string& offer);

}  // namespace stepline::ui
