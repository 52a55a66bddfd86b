// Reads a generator's parameters: numbers, or strings holding an integer expression over the size
// case's scalars ("C-1"), or keywords. Every error names the spec file and the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/expr.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

// "<spec file>" for messages (the task name when the spec has no file).
std::string spec_label(TaskSpec const& task);
// "buffers.<name>.generator" (one generator) or "buffers.<name>.generators[k]".
std::string buffer_generator_field(BufferSpec const& buffer, std::size_t index);

class ParamReader {
 public:
  // `where` is "<spec file>: <field>"; `env` holds the size case's integer scalars.
  ParamReader(GeneratorSpec const& spec, ScalarEnv env, std::string where)
      : spec_(spec), env_(std::move(env)), where_(std::move(where)) {}

  Result<double> number(std::string_view name, std::optional<double> fallback) const;
  Result<std::int64_t> integer(std::string_view name, std::optional<std::int64_t> fallback) const;
  Result<std::string> keyword(std::string_view name, std::string_view fallback,
                              std::vector<std::string_view> const& allowed) const;

  Error error(std::string const& message) const {
    return make_error(ErrorCode::invalid_spec, where_ + ": " + message);
  }
  std::string const& where() const noexcept { return where_; }
  GeneratorSpec const& spec() const noexcept { return spec_; }

 private:
  // The parameter's value (an expression evaluates to an exact integer); empty when absent.
  Result<std::optional<ScalarValue>> lookup(std::string_view name) const;

  GeneratorSpec const& spec_;
  ScalarEnv env_;
  std::string where_;
};

// Parses a string parameter as a plain number ("0.5", "-1e-3") if it is one.
std::optional<double> parse_number(std::string const& text);

}  // namespace kopt
