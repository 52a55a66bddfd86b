// kopt's configuration files: ./kopt.toml (the project's, found from the current folder up to the git
// root) and $XDG_CONFIG_HOME/kopt/config.toml (the user's, default ~/.config/kopt/config.toml). Their
// values are validated against the registry (settings.hpp) and exported as the settings' environment
// variables before any command runs, never replacing a variable that is already set, so that every
// module and every child process (kopt-worker, kopt-compile) sees them exactly as if the user had set
// them. Precedence: command-line option > environment > project file > user file > default
// (docs/configuration.md).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/settings.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

// The environment as the loader sees it: the value of a variable, nullopt when unset or empty (kopt's
// readers treat an empty variable as unset, so a file's value applies then).
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view)>;
EnvironmentLookup process_environment();

inline constexpr std::string_view kProjectFileName = "kopt.toml";

// The nearest kopt.toml from `start` (empty: none) upwards: `start`, its parent, ... up to and including the
// first folder holding .git (the project's root), else up to the filesystem root.
std::optional<std::filesystem::path> find_project_file(std::filesystem::path const& start);
// $XDG_CONFIG_HOME/kopt/config.toml, else $HOME/.config/kopt/config.toml; nullopt without either.
std::optional<std::filesystem::path> user_file_path(EnvironmentLookup const& env);

enum class SettingOrigin { default_value, user_file, project_file, environment };
std::string_view to_string(SettingOrigin origin) noexcept;

// One validated value of a file: what its variable gets, and where it was written.
struct FileValue {
  Setting const* setting = nullptr;
  std::string env_value;  // the variable's text: "1", "/abs/path", "[\"prog\",\"--flag\"]"
  int line = 0;           // 1-based; 0 when toml++ did not say
};

struct ConfigFile {
  std::filesystem::path path;
  std::vector<FileValue> values;
};

// Reads and validates one file. Every problem is reported at once, one per line, each naming the file,
// the line, the key and what was expected ("did you mean" for a near key); Error invalid_argument, or
// io_error when the file cannot be read. Relative paths are resolved against the file's folder, "~/"
// against $HOME.
Result<ConfigFile> read_config_file(std::filesystem::path const& path, EnvironmentLookup const& env);

// A user setting's value and where it came from.
struct ResolvedSetting {
  Setting const* setting = nullptr;
  std::optional<std::string> value;  // the variable's text; nullopt: the default applies
  SettingOrigin origin = SettingOrigin::default_value;
  std::filesystem::path file;  // the file it came from (file origins)
  int line = 0;
};

struct Configuration {
  bool files_disabled = false;  // KOPT_NO_CONFIG was set
  std::optional<std::filesystem::path> project_file;
  std::optional<std::filesystem::path> user_file;  // where it is looked for, present or not
  bool user_file_present = false;
  std::vector<ResolvedSetting> settings;  // every user setting, registry order
  std::vector<std::string> warnings;      // e.g. a secret in a file others can read
};

// Finds, reads and validates both files and resolves every user setting against `env`. `start` is the
// folder the project file is looked for from (the current directory).
Result<Configuration> resolve_configuration(std::filesystem::path const& start, EnvironmentLookup const& env);

// Exports the file-origin values (setenv, never replacing a variable already set to a value).
void export_to_environment(Configuration const& configuration);

// kopt's start-up: resolve from the current directory and the process environment, print the warnings
// as "kopt: warning: ..." on `warnings`, export. The configuration is kept for `kopt config`.
Result<Configuration> load_configuration(std::ostream& warnings);

}  // namespace kopt::cli
