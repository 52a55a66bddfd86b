#include "kopt/worker/confinement_paths.hpp"

#include <algorithm>

namespace kopt::worker {
namespace {

void collect(nlohmann::json const& node, std::vector<std::filesystem::path>& out) {
  auto add = [&out](std::filesystem::path folder) {
    folder = folder.lexically_normal();
    if (!folder.empty() && std::find(out.begin(), out.end(), folder) == out.end()) out.push_back(folder);
  };
  if (node.is_object()) {
    for (auto const& [key, value] : node.items()) {
      if (value.is_string() && key == "task_dir") {
        add(value.get<std::string>());
      } else if (value.is_string() && key == "path") {
        add(std::filesystem::path(value.get<std::string>()).parent_path());
      } else {
        collect(value, out);
      }
    }
  } else if (node.is_array()) {
    for (auto const& item : node) collect(item, out);
  }
}

}  // namespace

std::vector<std::filesystem::path> folders_read_by(nlohmann::json const& request) {
  std::vector<std::filesystem::path> out;
  collect(request, out);
  return out;
}

bool add_folder_arguments(std::vector<std::string>& worker_args, std::string const& option,
                          std::vector<std::filesystem::path> const& folders) {
  bool added = false;
  for (auto const& folder : folders) {
    bool named = false;
    for (std::size_t i = 0; i + 1 < worker_args.size() && !named; ++i) {
      named = worker_args[i] == option && worker_args[i + 1] == folder.string();
    }
    if (!named) {
      worker_args.push_back(option);
      worker_args.push_back(folder.string());
      added = true;
    }
  }
  return added;
}

bool add_allow_read_arguments(std::vector<std::string>& worker_args,
                              std::vector<std::filesystem::path> const& folders) {
  return add_folder_arguments(worker_args, "--allow-read", folders);
}

}  // namespace kopt::worker
