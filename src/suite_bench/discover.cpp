// Finding the tasks of a suite: every folder with a task.toml under the given roots.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "kopt/suite_bench.hpp"

namespace kopt {

Result<std::vector<SuiteTask>> discover_suite_tasks(std::vector<std::filesystem::path> const& roots,
                                                    std::vector<std::string> const& filters) {
  namespace fs = std::filesystem;
  std::vector<SuiteTask> tasks;
  for (auto const& root : roots) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
      return make_error(ErrorCode::not_found,
                        root.string() + ": not a folder; expected a suite (e.g. suites/) or a task folder");
    }
    auto const add = [&](fs::path const& dir) {
      SuiteTask t;
      t.dir = fs::absolute(dir);
      auto relative = fs::relative(dir, root, ec).generic_string();
      if (relative.empty() || relative == ".") relative = fs::absolute(root).filename().string();
      t.id = relative;
      auto const slash = relative.find('/');
      t.scenario =
          slash == std::string::npos ? fs::absolute(root).filename().string() : relative.substr(0, slash);
      tasks.push_back(std::move(t));
    };
    if (fs::exists(root / "task.toml", ec)) {
      add(root);
      continue;
    }
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->path().filename() == "task.toml") add(it->path().parent_path());
    }
    if (ec) return make_error(ErrorCode::io_error, root.string() + ": " + ec.message());
  }
  if (!filters.empty()) {
    std::erase_if(tasks, [&](SuiteTask const& t) {
      return std::none_of(filters.begin(), filters.end(),
                          [&](std::string const& f) { return t.id.find(f) != std::string::npos; });
    });
  }
  std::sort(tasks.begin(), tasks.end(), [](SuiteTask const& a, SuiteTask const& b) { return a.id < b.id; });
  return tasks;
}

Result<BenchShard> parse_bench_shard(std::string_view text) {
  auto const bad = [&] {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("--shard '{}': expected I/N with 0 <= I < N, e.g. 0/2 and 1/2 for two GPUs", text));
  };
  auto const slash = text.find('/');
  if (slash == std::string_view::npos) return bad();
  auto const number = [](std::string_view part) -> std::optional<std::size_t> {
    std::size_t value = 0;
    auto const [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size()) return std::nullopt;
    return value;
  };
  auto const index = number(text.substr(0, slash));
  auto const count = number(text.substr(slash + 1));
  if (!index || !count || *count == 0 || *index >= *count) return bad();
  return BenchShard{*index, *count};
}

std::vector<SuiteTask> shard_tasks(std::vector<SuiteTask> tasks, BenchShard shard) {
  if (shard.count <= 1) return tasks;
  std::vector<SuiteTask> part;
  for (std::size_t i = shard.index; i < tasks.size(); i += shard.count) part.push_back(std::move(tasks[i]));
  return part;
}

}  // namespace kopt
