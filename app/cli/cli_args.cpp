// Command-line parsing for the subcommands; see cli_args.h.
#include "app/cli/cli_args.h"

#include <algorithm>
#include <charconv>

namespace stepline::app {
namespace {

bool Contains(const std::vector<std::string_view>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Result<ParsedArgs, std::string> ParsedArgs::Parse(const Args& args, const ArgSpec& spec) {
  ParsedArgs parsed;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || arg.size() < 2 || arg[0] != '-') {
      parsed.positionals_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    // "--name=value" and "--name value" are the same option.
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    std::string value;
    if (Contains(spec.flags, name)) {
      if (eq != std::string::npos) return MakeUnexpected("flag " + name + " takes no value");
    } else if (Contains(spec.options, name)) {
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return MakeUnexpected("option " + name + " needs a value");
      }
    } else {
      return MakeUnexpected("unknown option " + name);
    }
    if (parsed.Has(name)) return MakeUnexpected("option " + name + " given twice");
    parsed.named_.emplace_back(name, std::move(value));
  }
  return parsed;
}

bool ParsedArgs::Has(std::string_view flag) const {
  return std::any_of(named_.begin(), named_.end(), [&](const auto& kv) { return kv.first == flag; });
}

std::optional<std::string> ParsedArgs::Value(std::string_view option) const {
  for (const auto& [name, value] : named_) {
    if (name == option) return value;
  }
  return std::nullopt;
}

Result<int64_t, std::string> ParsedArgs::IntValue(std::string_view option, int64_t fallback, int64_t min,
                                                  int64_t max) const {
  const std::optional<std::string> text = Value(option);
  if (!text) return fallback;
  int64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end) {
    return MakeUnexpected(std::string(option) + " expects an integer, got \"" + *text + "\"");
  }
  if (value < min || value > max) {
    return MakeUnexpected(std::string(option) + " must be in [" + std::to_string(min) + ", " + std::to_string(max) +
                          "], got " + *text);
  }
  return value;
}

}  // namespace stepline::app
