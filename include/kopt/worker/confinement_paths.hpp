// Which folders a worker request reads, for the worker's file-system confinement (Landlock rules are
// fixed when the worker confines itself, before its first request after hello): the worker adds the
// folders its first request names, and the client starts a fresh worker for a request that names a
// folder the running one was not confined with. docs/security.md, "Containment".
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kopt::worker {

// The request's task folder ("task_dir") and the folder of each artifact it names (every "path", at any
// depth: the compile cache), without repeats, in order of appearance.
std::vector<std::filesystem::path> folders_read_by(nlohmann::json const& request);

// Adds "<option> DIR" to a worker's arguments for each folder they do not name with it yet; true when one
// was added (a worker started with the old arguments does not know it).
bool add_folder_arguments(std::vector<std::string>& worker_args, std::string const& option,
                          std::vector<std::filesystem::path> const& folders);

// Adds "--allow-read DIR" to a worker's arguments for each folder they do not name yet; true when one
// was added (a worker started with the old arguments cannot read it).
bool add_allow_read_arguments(std::vector<std::string>& worker_args,
                              std::vector<std::filesystem::path> const& folders);

}  // namespace kopt::worker
