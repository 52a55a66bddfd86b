// TOML text that kopt writes into task.toml (kopt init, kopt strategies --write-binding). Private to
// src/task.
#pragma once

#include <string>
#include <string_view>

namespace kopt::task_detail {

// `text` as a TOML basic string: quoted, with '"' and '\\' escaped.
std::string toml_quote(std::string_view text);

}  // namespace kopt::task_detail
