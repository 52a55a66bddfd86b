// Error collection for task.toml validation: every message is
// `<file>:<line>:<col>: <field path>: <what was wrong>; expected <what>`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/detail/toml.hpp"
#include "kopt/result.hpp"

namespace kopt::task_detail {

class SpecDiagnostics {
 public:
  explicit SpecDiagnostics(std::string origin) : origin_(std::move(origin)) {}

  // Records one problem at `where` (a node's or key's source region; an unknown region prints no
  // line and column). `expected` may be empty when `what` already says it.
  void error(toml::source_region const& where, std::string_view field, std::string_view what,
             std::string_view expected);

  bool ok() const noexcept { return messages_.empty(); }
  // All messages, one per line in source order, as an invalid_spec error.
  Error to_error() const;
  std::string const& origin() const noexcept { return origin_; }

 private:
  std::string origin_;
  struct Message {
    std::uint32_t line = 0;  // 0: no location
    std::uint32_t column = 0;
    std::string text;
  };
  std::vector<Message> messages_;
};

// "string", "integer", "float", "boolean", "array", "table", "date", ...
std::string_view type_name(toml::node const& node) noexcept;

// Comma-separated list of quoted names: 'a', 'b'.
std::string quoted_list(std::vector<std::string> const& names);

// Reports every key of `table` that is not in `allowed`, naming it and listing the allowed keys.
void check_keys(SpecDiagnostics& diag, toml::table const& table, std::string_view field_prefix,
                std::vector<std::string> const& allowed);

// A placeholder string written by `kopt init` ("TODO", "TODO: ...").
bool is_todo(std::string_view text) noexcept;

// Joins a field path: join_field("buffers", "in") == "buffers.in"; an empty prefix yields the key.
std::string join_field(std::string_view prefix, std::string_view key);

}  // namespace kopt::task_detail
