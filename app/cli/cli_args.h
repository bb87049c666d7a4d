// A small command-line parser for the subcommands: positional arguments,
// boolean flags (--json) and valued options (--repeat 5 or --repeat=5).
// Errors are values (a message naming the bad argument); nothing exits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/commands.h"
#include "model/result.h"

namespace stepline::app {

// What a subcommand accepts. Names include the dashes ("--json").
struct ArgSpec {
  std::vector<std::string_view> flags;    // take no value
  std::vector<std::string_view> options;  // take one value
};

class ParsedArgs {
 public:
  // Fails on an unknown "--name", a missing option value, or a repeated option.
  // "--" ends option parsing; a lone "-" is a positional.
  static Result<ParsedArgs, std::string> Parse(const Args& args, const ArgSpec& spec);

  bool Has(std::string_view flag) const;                            // flag or option present
  std::optional<std::string> Value(std::string_view option) const;  // option's value, if given
  // The option as an integer in [min, max]; `fallback` when absent.
  Result<int64_t, std::string> IntValue(std::string_view option, int64_t fallback, int64_t min, int64_t max) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  std::vector<std::pair<std::string, std::string>> named_;  // (name, value); flags have ""
  std::vector<std::string> positionals_;
};

}  // namespace stepline::app
