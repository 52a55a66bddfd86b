// The registry of kopt's settings: every KOPT_* environment variable that kopt, its helper programs or
// its scripts read, with its configuration-file key (for user settings), type, range, default and
// meaning. One list, so that the configuration files (config_files.hpp), `kopt config` and
// docs/configuration.md cannot disagree about what exists; tests/cli/settings_registry_test.cpp fails
// when the sources read a KOPT_ variable missing here or when docs/configuration.md misses an entry.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kopt::cli {

// Who sets a variable: the user (it may also live in a configuration file when it has a key), kopt
// itself for its own children or tests (internal), or the user of a script under scripts/ (script).
enum class SettingScope { user, internal, script };

enum class SettingType {
  text,     // any string
  url,      // a string starting with http:// or https://
  path,     // a file or folder; relative paths in a file are taken from the file's folder
  boolean,  // true or false (the variable gets true_text / false_text)
  integer,  // whole number in [low, high]
  seconds,  // number (integer or float) in (low, high]
  choice,   // one of `choices` ("openai|anthropic|command|replay")
  program,  // "on", "off", a path, or a boolean (true: on, false: off)
  command,  // an array of strings (argv) or one string of words separated by spaces
};

struct Setting {
  std::string_view key;  // "compile.nice" (table.name in the file); empty: environment only
  std::string_view env;  // "KOPT_COMPILE_NICE"
  SettingScope scope = SettingScope::user;
  SettingType type = SettingType::text;
  double low = 0;                 // integer: smallest allowed; seconds: values must be greater than this
  double high = 0;                // largest allowed (integer, seconds)
  std::string_view choices;       // choice: alternatives separated by '|'
  std::string_view true_text;     // boolean: the variable's value for true
  std::string_view false_text;    // boolean: the variable's value for false ("": leave it unset)
  std::string_view default_text;  // what applies when nothing sets it, in words
  std::string_view meaning;       // one line
  std::string_view doc;           // the page that explains it: "docs/compile.md"
  bool secret = false;            // never printed; warn when a file holding it is readable by others
};

// Every setting, grouped by table, user settings first.
std::span<Setting const> all_settings() noexcept;

Setting const* find_setting_by_key(std::string_view key) noexcept;
Setting const* find_setting_by_env(std::string_view env) noexcept;

// The registered key closest to `unknown` (a typo of a key or of its last part: "llm.modle", "model"),
// or the key of the variable `unknown` names ("KOPT_LLM_MODEL"); nullopt when nothing is close.
std::optional<std::string_view> nearest_setting_key(std::string_view unknown);
// The registered table closest to `unknown` ("complie": "compile"); nullopt when nothing is close.
std::optional<std::string_view> nearest_setting_table(std::string_view unknown);

// The table part of a key ("compile" of "compile.nice") and the name part ("nice").
std::string_view key_table(std::string_view key) noexcept;
std::string_view key_name(std::string_view key) noexcept;

// "an integer from 0 to 19", "one of openai, anthropic, command, replay": what a value must be.
std::string expected_text(Setting const& setting);
std::string_view to_string(SettingScope scope) noexcept;

// The row of docs/configuration.md's table for `setting` (Markdown, no trailing newline).
std::string settings_table_row(Setting const& setting);
// The whole table: header and one row per setting.
std::string settings_table();

}  // namespace kopt::cli
