// Finding PyTorch problems (KernelBench format: a .py file with a module-level `class Model`) for
// `kopt bench --torch`, and telling a folder of them from a suite of task folders.
#include <algorithm>
#include <fstream>

#include "kopt/suite_bench.hpp"

namespace kopt {
namespace {

namespace fs = std::filesystem;

// A line that starts a module-level `class Model` ("class Model(nn.Module):", "class Model:").
bool defines_model(std::string_view line) {
  constexpr std::string_view kClass = "class Model";
  if (!line.starts_with(kClass)) return false;
  if (line.size() == kClass.size()) return false;
  char const next = line[kClass.size()];
  return next == '(' || next == ':' || next == ' ' || next == '\t';
}

bool is_torch_problem(fs::path const& file) {
  if (file.extension() != ".py") return false;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (defines_model(line)) return true;
  }
  return false;
}

bool holds_task(fs::path const& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return false;
  if (fs::exists(root / "task.toml", ec)) return true;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->path().filename() == "task.toml") return true;
  }
  return false;
}

SuiteTask problem_task(fs::path const& file, fs::path const& root) {
  std::error_code ec;
  SuiteTask t;
  t.dir = fs::absolute(file);
  fs::path relative = root.empty() ? file.filename() : fs::relative(file, root, ec);
  relative.replace_extension();
  t.id = relative.generic_string();
  auto const slash = t.id.find('/');
  // A problem given as a file, or at the top of its root: the folder holding it names its level.
  t.scenario = slash == std::string::npos ? fs::absolute(file).parent_path().filename().string()
                                          : t.id.substr(0, slash);
  return t;
}

}  // namespace

bool is_torch_corpus(std::vector<fs::path> const& roots) {
  std::error_code ec;
  bool any_problem = false;
  for (auto const& root : roots) {
    if (fs::is_regular_file(root, ec) && is_torch_problem(root)) return true;
    if (holds_task(root)) return false;
  }
  for (auto const& root : roots) {
    if (!fs::is_directory(root, ec)) continue;
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !any_problem && !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      any_problem = it->is_regular_file(ec) && is_torch_problem(it->path());
    }
  }
  return any_problem;
}

Result<std::vector<SuiteTask>> discover_torch_problems(std::vector<fs::path> const& roots,
                                                       std::vector<std::string> const& filters) {
  std::vector<SuiteTask> problems;
  for (auto const& root : roots) {
    std::error_code ec;
    if (fs::is_regular_file(root, ec)) {
      if (!is_torch_problem(root)) {
        return make_error(ErrorCode::invalid_argument,
                          root.string() + ": not a PyTorch problem; expected a .py file with `class Model`");
      }
      problems.push_back(problem_task(root, {}));
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      return make_error(ErrorCode::not_found,
                        root.string() + ": no such folder or file; expected a folder of PyTorch problems");
    }
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec) && is_torch_problem(it->path()))
        problems.push_back(problem_task(it->path(), root));
    }
    if (ec) return make_error(ErrorCode::io_error, root.string() + ": " + ec.message());
  }
  if (!filters.empty()) {
    std::erase_if(problems, [&](SuiteTask const& t) {
      return std::none_of(filters.begin(), filters.end(),
                          [&](std::string const& f) { return t.id.find(f) != std::string::npos; });
    });
  }
  std::sort(problems.begin(), problems.end(),
            [](SuiteTask const& a, SuiteTask const& b) { return a.id < b.id; });
  return problems;
}

}  // namespace kopt
