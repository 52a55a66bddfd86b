// default_configuration: the point nearest to a source's `#ifndef KNOB / #define KNOB value` defaults.
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "kopt/optimize_space.hpp"
#include "kopt/text.hpp"

namespace kopt {
namespace {

// "#  directive rest" -> rest when the line is that directive.
std::optional<std::string_view> directive(std::string_view line, std::string_view name) {
  line = trim(line);
  if (line.empty() || line.front() != '#') return std::nullopt;
  line = trim(line.substr(1));
  if (line.substr(0, name.size()) != name) return std::nullopt;
  std::string_view rest = line.substr(name.size());
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t') return std::nullopt;
  return trim(rest);
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  auto const* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

// Values of `#ifndef NAME` immediately followed by `#define NAME <integer>`.
std::map<std::string, std::int64_t, std::less<>> ifndef_defaults(std::string const& source) {
  std::map<std::string, std::int64_t, std::less<>> defaults;
  std::istringstream in(source);
  std::string line;
  std::string pending;
  while (std::getline(in, line)) {
    if (auto name = directive(line, "ifndef")) {
      pending = std::string(*name);
      continue;
    }
    if (!pending.empty()) {
      if (auto rest = directive(line, "define")) {
        if (rest->substr(0, pending.size()) == pending) {
          if (auto value = parse_int(trim(rest->substr(pending.size())))) defaults.emplace(pending, *value);
        }
      }
    }
    pending.clear();
  }
  return defaults;
}

}  // namespace

std::optional<Configuration> default_configuration(TuningSpace const& space, std::string const& source) {
  auto const defaults = ifndef_defaults(source);
  Configuration config;
  bool found = false;
  for (Knob const& knob : space.knobs()) {
    std::size_t best = 0;
    auto const it = knob.kind == KnobKind::integer ? defaults.find(knob.name) : defaults.end();
    if (it != defaults.end() && !knob.values.empty()) {
      found = true;
      std::int64_t best_distance = INT64_MAX;
      for (std::size_t i = 0; i < knob.values.size(); ++i) {
        std::int64_t const distance = std::llabs(knob.values[i] - it->second);
        if (distance < best_distance) {
          best_distance = distance;
          best = i;
        }
      }
    }
    config.indices.push_back(best);
  }
  if (!found) return std::nullopt;
  return config;
}

}  // namespace kopt
