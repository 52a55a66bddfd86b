#include "cli/config_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace kopt::cli {
namespace {

std::string shown_value(ResolvedSetting const& resolved) {
  if (!resolved.value) return fmt::format("({})", resolved.setting->default_text);
  if (resolved.setting->secret) return "(set, hidden)";
  return *resolved.value;
}

std::string shown_origin(ResolvedSetting const& resolved) {
  if (resolved.file.empty()) return std::string(to_string(resolved.origin));
  return fmt::format("{} {}:{}", to_string(resolved.origin), resolved.file.string(), resolved.line);
}

std::string display_key(Setting const& setting) {
  return setting.key.empty() ? std::string("-") : std::string(setting.key);
}

}  // namespace

nlohmann::json configuration_to_json(Configuration const& configuration) {
  using nlohmann::json;
  auto const path_or_null = [](std::optional<std::filesystem::path> const& path) {
    return path ? json(path->string()) : json(nullptr);
  };
  json files{{"read", !configuration.files_disabled},
             {"project", path_or_null(configuration.project_file)},
             {"user", path_or_null(configuration.user_file)},
             {"user_present", configuration.user_file_present}};
  json settings = json::array();
  for (auto const& resolved : configuration.settings) {
    Setting const& s = *resolved.setting;
    json entry{{"key", s.key.empty() ? json(nullptr) : json(std::string(s.key))},
               {"variable", std::string(s.env)},
               {"origin", std::string(to_string(resolved.origin))},
               {"default", std::string(s.default_text)}};
    entry["value"] = resolved.value && !s.secret ? json(*resolved.value) : json(nullptr);
    if (s.secret && resolved.value) entry["hidden"] = true;
    if (!resolved.file.empty()) {
      entry["file"] = resolved.file.string();
      entry["line"] = resolved.line;
    }
    settings.push_back(std::move(entry));
  }
  return json{{"schema", "kopt.config/1"}, {"files", std::move(files)}, {"settings", std::move(settings)}};
}

std::string render_configuration(Configuration const& configuration) {
  std::string text = "Configuration files (docs/configuration.md):\n";
  if (configuration.files_disabled) {
    text += "  none read (KOPT_NO_CONFIG is set)\n";
  } else {
    text += fmt::format("  project: {}\n",
                        configuration.project_file
                            ? configuration.project_file->string()
                            : std::string("none (no kopt.toml here or above, up to the git root)"));
    text += fmt::format(
        "  user:    {}{}\n",
        configuration.user_file ? configuration.user_file->string() : std::string("none ($HOME unset)"),
        configuration.user_file && !configuration.user_file_present ? " (not present)" : "");
  }
  std::vector<std::array<std::string, 4>> rows{{"key", "value", "from", "variable"}};
  for (auto const& resolved : configuration.settings) {
    rows.push_back({display_key(*resolved.setting), shown_value(resolved), shown_origin(resolved),
                    std::string(resolved.setting->env)});
  }
  std::array<std::size_t, 4> widths{};
  for (auto const& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  text += "\n";
  for (auto const& row : rows) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {:<{}}  {}", row[0], widths[0], row[1], widths[1], row[2],
                                   widths[2], row[3]);
    text += line + "\n";
  }
  return text;
}

}  // namespace kopt::cli
