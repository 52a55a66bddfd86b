#include "inputs/generator_params.hpp"

#include <charconv>
#include <cmath>

namespace kopt {

std::string spec_label(TaskSpec const& task) {
  if (!task.spec_file.empty()) return task.spec_file.string();
  return task.name.empty() ? std::string("task") : task.name;
}

std::string buffer_generator_field(BufferSpec const& buffer, std::size_t index) {
  if (buffer.generators.size() == 1) return "buffers." + buffer.name + ".generator";
  return "buffers." + buffer.name + ".generators[" + std::to_string(index) + "]";
}

std::optional<double> parse_number(std::string const& text) {
  double value = 0.0;
  char const* begin = text.data();
  char const* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;
  auto const [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || begin == end) return std::nullopt;
  return value;
}

Result<std::optional<ScalarValue>> ParamReader::lookup(std::string_view name) const {
  auto const it = spec_.params.find(std::string(name));
  if (it == spec_.params.end()) return std::optional<ScalarValue>();
  if (auto const* value = std::get_if<double>(&it->second)) {
    if (!std::isfinite(*value)) return error("parameter '" + std::string(name) + "' is not finite");
    return std::optional<ScalarValue>(*value);
  }
  auto const& text = std::get<std::string>(it->second);
  if (auto value = parse_number(text)) return std::optional<ScalarValue>(*value);
  auto expr = Expr::parse(text);
  if (!expr) {
    return error("parameter '" + std::string(name) + "': " + expr.error().message +
                 "; expected a number or an integer expression over the scalars");
  }
  auto value = expr->evaluate(env_);
  if (!value)
    return error("parameter '" + std::string(name) + "' = \"" + text + "\": " + value.error().message);
  return std::optional<ScalarValue>(*value);
}

Result<double> ParamReader::number(std::string_view name, std::optional<double> fallback) const {
  auto found = lookup(name);
  if (!found) return std::move(found).error();
  if (!*found) {
    if (fallback) return *fallback;
    return error("missing parameter '" + std::string(name) + "' for kind '" + spec_.kind + "'");
  }
  if (auto const* exact = std::get_if<std::int64_t>(&**found)) return static_cast<double>(*exact);
  return std::get<double>(**found);
}

Result<std::int64_t> ParamReader::integer(std::string_view name, std::optional<std::int64_t> fallback) const {
  auto found = lookup(name);
  if (!found) return std::move(found).error();
  if (!*found) {
    if (fallback) return *fallback;
    return error("missing parameter '" + std::string(name) + "' for kind '" + spec_.kind + "'");
  }
  if (auto const* exact = std::get_if<std::int64_t>(&**found)) return *exact;
  double const value = std::get<double>(**found);
  if (value != std::floor(value) || std::fabs(value) > 9.0e18) {
    return error("parameter '" + std::string(name) + "' is " + std::to_string(value) +
                 "; expected an integer");
  }
  return static_cast<std::int64_t>(value);
}

Result<std::string> ParamReader::keyword(std::string_view name, std::string_view fallback,
                                         std::vector<std::string_view> const& allowed) const {
  auto const it = spec_.params.find(std::string(name));
  std::string value(fallback);
  if (it != spec_.params.end()) {
    auto const* text = std::get_if<std::string>(&it->second);
    if (text == nullptr) {
      std::string expected;
      for (auto option : allowed) expected += (expected.empty() ? "\"" : ", \"") + std::string(option) + "\"";
      return error("parameter '" + std::string(name) + "' is a number; expected one of " + expected);
    }
    value = *text;
  }
  for (auto option : allowed) {
    if (option == value) return value;
  }
  std::string expected;
  for (auto option : allowed) expected += (expected.empty() ? "\"" : ", \"") + std::string(option) + "\"";
  return error("parameter '" + std::string(name) + "' is '" + value + "'; expected one of " + expected);
}

}  // namespace kopt
