// TuningSpace::apply: a configuration as a concrete compile request and launch geometry.
#include <fmt/format.h>

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/tuning.hpp"
#include "tuning/tokens.hpp"

namespace kopt {
namespace {

constexpr std::string_view kLaunchMarker = "kopt:launch";

// Where the fields of a `// kopt:launch` comment line start, or npos when it is not one.
std::size_t launch_fields_offset(std::string_view line) {
  auto const space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::size_t i = 0;
  while (i < line.size() && space(line[i])) ++i;
  if (line.substr(i, 2) != "//") return std::string_view::npos;
  i += 2;
  while (i < line.size() && space(line[i])) ++i;
  if (line.substr(i, kLaunchMarker.size()) != kLaunchMarker) return std::string_view::npos;
  i += kLaunchMarker.size();
  if (i < line.size() && !space(line[i])) return std::string_view::npos;
  return i;
}

}  // namespace

Result<AppliedConfiguration> TuningSpace::apply(Configuration const& config, CompileRequest const& base,
                                                LaunchSpec const& base_launch) const {
  if (auto status = check_configuration(config); !status) return status.error();
  ScalarEnv const knobs = env(config);
  auto const replacement = [&](std::string_view name) -> std::optional<std::string> {
    auto const it = knobs.find(name);
    if (it == knobs.end()) return std::nullopt;
    return it->second < 0 ? fmt::format("({})", it->second) : std::to_string(it->second);
  };

  AppliedConfiguration applied;
  applied.request = base;
  for (auto& flag : flags(config)) applied.request.flags.push_back(std::move(flag));
  applied.request.entry = tuning_detail::substitute_identifiers(base.entry, replacement);

  // The source's own `// kopt:launch` line gets the values too, so that the concrete source describes
  // its geometry with size scalars only (the worker evaluates launch expressions over sizes alone).
  std::string source;
  source.reserve(base.source.size());
  std::string_view text = base.source;
  while (!text.empty()) {
    std::size_t const end = text.find('\n');
    std::string_view const line = text.substr(0, end);
    std::size_t const fields = launch_fields_offset(line);
    if (fields == std::string_view::npos) {
      source += line;
    } else {
      source += line.substr(0, fields);
      source += tuning_detail::substitute_identifiers(line.substr(fields), replacement);
    }
    if (end == std::string_view::npos) break;
    source += '\n';
    text = text.substr(end + 1);
  }
  applied.request.source = std::move(source);

  LaunchSpec& launch = applied.launch;
  launch.kernel = tuning_detail::substitute_identifiers(base_launch.kernel, replacement);
  auto substitute = [&](Expr const& expr, std::string_view field) -> Result<Expr> {
    std::string const text_with_values = tuning_detail::substitute_identifiers(expr.text(), replacement);
    auto parsed = Expr::parse(text_with_values);
    if (!parsed) {
      return make_error(ErrorCode::invalid_spec,
                        fmt::format("{}: launch {} '{}' with knob values '{}': {}", origin_, field,
                                    expr.text(), text_with_values, parsed.error().message));
    }
    return parsed;
  };
  for (Expr const& dim : base_launch.grid) {
    auto expr = substitute(dim, "grid");
    if (!expr) return expr.error();
    launch.grid.push_back(std::move(*expr));
  }
  for (Expr const& dim : base_launch.block) {
    auto expr = substitute(dim, "block");
    if (!expr) return expr.error();
    launch.block.push_back(std::move(*expr));
  }
  auto shared = substitute(base_launch.shared_bytes, "shared");
  if (!shared) return shared.error();
  launch.shared_bytes = std::move(*shared);
  return applied;
}

}  // namespace kopt
