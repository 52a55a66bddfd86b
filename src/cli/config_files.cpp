// Finding, reading, validating and exporting the configuration files (config_files.hpp says why the
// values travel as environment variables).
#include "cli/config_files.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <system_error>
#include <variant>

#include "cli/error_output.hpp"
#include "kopt/detail/toml.hpp"
#include "kopt/text.hpp"

namespace kopt::cli {
namespace {

namespace fs = std::filesystem;

std::string type_name(toml::node const& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}

int line_of(toml::source_region const& region) {
  return static_cast<int>(region.begin.line);
}

bool is_choice(std::string_view choices, std::string_view value) {
  while (!choices.empty()) {
    auto const bar = choices.find('|');
    if (choices.substr(0, bar) == value) return true;
    if (bar == std::string_view::npos) break;
    choices.remove_prefix(bar + 1);
  }
  return false;
}

// A path as the file means it: "~/x" under $HOME, a relative one under the file's folder.
std::optional<std::string> resolve_path(std::string const& value, fs::path const& file,
                                        EnvironmentLookup const& env) {
  if (value == "~" || value.rfind("~/", 0) == 0) {
    auto const home = env("HOME");
    if (!home) return std::nullopt;
    return (fs::path(*home) / value.substr(value.size() > 1 ? 2 : 1)).lexically_normal().string();
  }
  fs::path const path(value);
  if (path.is_absolute()) return path.lexically_normal().string();
  return (file.parent_path() / path).lexically_normal().string();
}

// Validates one value against its setting and turns it into the variable's text; the problem otherwise.
class ValueReader {
 public:
  ValueReader(fs::path const& file, EnvironmentLookup const& env) : file_(file), env_(env) {}

  // The variable's text, or the problem ("expected ..., got ...").
  std::variant<std::string, std::string> read(Setting const& setting, toml::node const& node) const {
    auto const problem = [&](std::string const& got) {
      return std::variant<std::string, std::string>(std::in_place_index<1>,
                                                    "expected " + expected_text(setting) + ", got " + got);
    };
    auto const ok = [](std::string text) {
      return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(text));
    };
    auto const quoted = [](std::string const& text) { return "'" + text + "'"; };
    switch (setting.type) {
      case SettingType::text:
        if (auto const* s = node.as_string()) return ok(s->get());
        return problem(type_name(node));
      case SettingType::url: {
        auto const* s = node.as_string();
        if (s == nullptr) return problem(type_name(node));
        if (s->get().rfind("http://", 0) != 0 && s->get().rfind("https://", 0) != 0) {
          return problem(quoted(s->get()));
        }
        return ok(s->get());
      }
      case SettingType::path: {
        auto const* s = node.as_string();
        if (s == nullptr) return problem(type_name(node));
        if (s->get().empty()) return problem("an empty string");
        auto resolved = resolve_path(s->get(), file_, env_);
        if (!resolved) return problem(quoted(s->get()) + " and $HOME is not set");
        return ok(*resolved);
      }
      case SettingType::boolean:
        if (auto const* b = node.as_boolean()) {
          return ok(std::string(b->get() ? setting.true_text : setting.false_text));
        }
        return problem(type_name(node));
      case SettingType::integer: {
        auto const* i = node.as_integer();
        if (i == nullptr) return problem(type_name(node));
        auto const value = static_cast<double>(i->get());
        if (value < setting.low || value > setting.high) return problem(std::to_string(i->get()));
        return ok(std::to_string(i->get()));
      }
      case SettingType::seconds: {
        std::optional<double> value;
        std::string text;
        if (auto const* i = node.as_integer()) {
          value = static_cast<double>(i->get());
          text = std::to_string(i->get());
        } else if (auto const* f = node.as_floating_point()) {
          value = f->get();
          text = fmt::format("{}", f->get());
        }
        if (!value) return problem(type_name(node));
        if (!(*value > setting.low && *value <= setting.high)) return problem(text);
        return ok(text);
      }
      case SettingType::choice: {
        auto const* s = node.as_string();
        if (s == nullptr) return problem(type_name(node));
        if (!is_choice(setting.choices, s->get())) return problem(quoted(s->get()));
        return ok(s->get());
      }
      case SettingType::program: {
        if (auto const* b = node.as_boolean()) return ok(b->get() ? "on" : "off");
        auto const* s = node.as_string();
        if (s == nullptr) return problem(type_name(node));
        if (s->get().empty()) return problem("an empty string");
        if (s->get() == "on" || s->get() == "off") return ok(s->get());
        // A bare name is looked up on PATH, as the variable's would be; a path is the file's.
        if (s->get().find('/') == std::string::npos) return ok(s->get());
        auto resolved = resolve_path(s->get(), file_, env_);
        if (!resolved) return problem(quoted(s->get()) + " and $HOME is not set");
        return ok(*resolved);
      }
      case SettingType::command: {
        if (auto const* s = node.as_string()) {
          if (s->get().find_first_not_of(" \t") == std::string::npos) return problem("an empty string");
          return ok(s->get());
        }
        auto const* array = node.as_array();
        if (array == nullptr) return problem(type_name(node));
        if (array->empty()) return problem("an empty array");
        nlohmann::json argv = nlohmann::json::array();
        for (auto const& word : *array) {
          auto const* s = word.as_string();
          if (s == nullptr) return problem("an array holding " + type_name(word));
          argv.push_back(s->get());
        }
        return ok(argv.dump());  // KOPT_LLM_COMMAND reads a JSON array of strings
      }
    }
    return problem(type_name(node));
  }

 private:
  fs::path const& file_;
  EnvironmentLookup const& env_;
};

std::string did_you_mean(std::optional<std::string_view> near, std::string_view form) {
  if (!near) return "";
  return fmt::format(fmt::runtime(form), *near);
}

bool is_known_table(std::string_view name) {
  for (Setting const& s : all_settings()) {
    if (!s.key.empty() && key_table(s.key) == name) return true;
  }
  return false;
}

bool readable_by_others(fs::path const& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return false;
  return (info.st_mode & (S_IRGRP | S_IROTH)) != 0;
}

}  // namespace

EnvironmentLookup process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    char const* value = std::getenv(std::string(name).c_str());  // NOLINT(concurrency-mt-unsafe)
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

std::optional<fs::path> find_project_file(fs::path const& start) {
  if (start.empty()) return std::nullopt;
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  for (;;) {
    fs::path const candidate = dir / kProjectFileName;
    if (fs::is_regular_file(candidate, ec)) return candidate;
    if (fs::exists(dir / ".git", ec)) return std::nullopt;  // the project's root: stop here
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

std::optional<fs::path> user_file_path(EnvironmentLookup const& env) {
  if (auto const xdg = env("XDG_CONFIG_HOME"); xdg && fs::path(*xdg).is_absolute()) {
    return fs::path(*xdg) / "kopt" / "config.toml";
  }
  if (auto const home = env("HOME")) return fs::path(*home) / ".config" / "kopt" / "config.toml";
  return std::nullopt;
}

std::string_view to_string(SettingOrigin origin) noexcept {
  switch (origin) {
    case SettingOrigin::default_value: return "default";
    case SettingOrigin::user_file: return "user file";
    case SettingOrigin::project_file: return "project file";
    case SettingOrigin::environment: return "environment";
  }
  return "default";
}

Result<ConfigFile> read_config_file(fs::path const& path, EnvironmentLookup const& env) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::io_error, fmt::format("cannot read the configuration file {}: {}",
                                                       path.string(), errno_text(errno)));
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string const content = text.str();
  if (auto problem = detail::precheck_toml(content)) {  // text toml++ 3.3 must not see
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("{}:{}:{}: not valid TOML: {}; expected {}", path.string(), problem->line,
                                  problem->column, problem->what, problem->expected));
  }
  toml::table root;
  try {
    root = toml::parse(content, path.string());
  } catch (toml::parse_error const& e) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("{}:{}:{}: not valid TOML: {}", path.string(), e.source().begin.line,
                                  e.source().begin.column, e.description()));
  }
  std::error_code ec;
  fs::path const absolute = fs::absolute(path, ec);
  ConfigFile file{ec ? path : absolute, {}};
  ValueReader const reader(file.path, env);
  std::vector<std::pair<int, std::string>> problems;  // by line: toml++ iterates tables in key order
  auto const report = [&](int line, std::string const& message) {
    problems.emplace_back(line, fmt::format("{}:{}: {}", path.string(), line, message));
  };
  for (auto const& [table_key, table_node] : root) {
    std::string const table_name(table_key.str());
    auto const* table = table_node.as_table();
    if (table == nullptr) {
      auto const near = nearest_setting_key(table_name);
      report(line_of(table_key.source()),
             fmt::format("unknown key '{}' (settings live in tables such as [compile]){}", table_name,
                         did_you_mean(near, "; did you mean '{}'?")));
      continue;
    }
    if (!is_known_table(table_name)) {
      report(line_of(table_key.source()),
             fmt::format("unknown table [{}]{}", table_name,
                         did_you_mean(nearest_setting_table(table_name), "; did you mean [{}]?")));
      continue;
    }
    for (auto const& [name_key, node] : *table) {
      std::string const key = table_name + "." + std::string(name_key.str());
      Setting const* setting = find_setting_by_key(key);
      if (setting == nullptr) {
        report(line_of(name_key.source()),
               fmt::format("unknown key '{}'{}", key,
                           did_you_mean(nearest_setting_key(key), "; did you mean '{}'?")));
        continue;
      }
      auto value = reader.read(*setting, node);
      if (value.index() == 1) {
        report(line_of(node.source()), key + ": " + std::get<1>(value));
        continue;
      }
      file.values.push_back(FileValue{setting, std::get<0>(std::move(value)), line_of(node.source())});
    }
  }
  if (!problems.empty()) {
    std::stable_sort(problems.begin(), problems.end(),
                     [](auto const& a, auto const& b) { return a.first < b.first; });
    std::string message =
        problems.size() == 1
            ? problems.front().second
            : fmt::format("{} problems in the configuration file {}:", problems.size(), path.string());
    if (problems.size() > 1) {
      for (auto const& problem : problems) message += "\n  " + problem.second;
    }
    return make_error(ErrorCode::invalid_argument, message);
  }
  return file;
}

Result<Configuration> resolve_configuration(fs::path const& start, EnvironmentLookup const& env) {
  Configuration configuration;
  if (auto const off = env("KOPT_NO_CONFIG"); off && *off != "0") configuration.files_disabled = true;
  std::optional<ConfigFile> project;
  std::optional<ConfigFile> user;
  if (!configuration.files_disabled) {
    configuration.project_file = find_project_file(start);
    configuration.user_file = user_file_path(env);
    if (configuration.project_file) {
      auto read = read_config_file(*configuration.project_file, env);
      if (!read) return read.error();
      project = std::move(read).value();
    }
    std::error_code ec;
    if (configuration.user_file && fs::exists(*configuration.user_file, ec)) {
      configuration.user_file_present = true;
      auto read = read_config_file(*configuration.user_file, env);
      if (!read) return read.error();
      user = std::move(read).value();
    }
  }
  auto const from_file = [](std::optional<ConfigFile> const& file,
                            Setting const& setting) -> FileValue const* {
    if (!file) return nullptr;
    for (auto const& value : file->values) {
      if (value.setting == &setting) return &value;
    }
    return nullptr;
  };
  for (Setting const& setting : all_settings()) {
    if (setting.scope != SettingScope::user) continue;
    ResolvedSetting resolved{&setting, std::nullopt, SettingOrigin::default_value, {}, 0};
    if (auto const value = env(setting.env)) {
      resolved.value = *value;
      resolved.origin = SettingOrigin::environment;
    } else if (FileValue const* p = from_file(project, setting)) {
      resolved = {&setting, p->env_value, SettingOrigin::project_file, project->path, p->line};
    } else if (FileValue const* u = from_file(user, setting)) {
      resolved = {&setting, u->env_value, SettingOrigin::user_file, user->path, u->line};
    }
    configuration.settings.push_back(std::move(resolved));
  }
  for (auto const* file : {&project, &user}) {
    if (!*file) continue;
    for (auto const& value : (*file)->values) {
      if (!value.setting->secret || !readable_by_others((*file)->path)) continue;
      configuration.warnings.push_back(
          fmt::format("{} holds {} and can be read by other users; run 'chmod 600 {}'",
                      (*file)->path.string(), value.setting->key, (*file)->path.string()));
    }
  }
  return configuration;
}

void export_to_environment(Configuration const& configuration) {
  for (auto const& resolved : configuration.settings) {
    bool const from_file =
        resolved.origin == SettingOrigin::project_file || resolved.origin == SettingOrigin::user_file;
    if (!from_file || !resolved.value || resolved.value->empty()) continue;
    std::string const name(resolved.setting->env);
    char const* current = std::getenv(name.c_str());       // NOLINT(concurrency-mt-unsafe)
    if (current != nullptr && *current != '\0') continue;  // set after resolving: it wins
    // Replaces an empty variable only; at start-up, before kopt starts a thread.
    ::setenv(name.c_str(), resolved.value->c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
  }
}

Result<Configuration> load_configuration(std::ostream& warnings) {
  std::error_code ec;
  fs::path start = fs::current_path(ec);
  if (ec) start.clear();  // a deleted working folder: no project file
  auto configuration = resolve_configuration(start, process_environment());
  if (!configuration) return configuration;
  for (auto const& warning : configuration->warnings) report_warning(warning, warnings);
  export_to_environment(*configuration);
  return configuration;
}

}  // namespace kopt::cli
