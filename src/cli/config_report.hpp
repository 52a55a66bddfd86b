// What `kopt config` prints: the resolved settings as a table for people and as kopt.config/1 JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cli/config_files.hpp"

namespace kopt::cli {

// {"schema": "kopt.config/1", "files": {...}, "settings": [{"key", "variable", "value", "origin", ...}]};
// a secret's value is null with "hidden": true.
nlohmann::json configuration_to_json(Configuration const& configuration);

// The files read, then one line per setting: key, value (or the default in words), origin, variable.
std::string render_configuration(Configuration const& configuration);

}  // namespace kopt::cli
