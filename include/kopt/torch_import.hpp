// Importing a PyTorch problem in the KernelBench format as a kopt task (docs/pytorch.md): kopt_torch's
// importer run through the bridge's Python, then the task it wrote loaded as every task is. Used by
// `kopt import-torch` and by `kopt bench` on a folder of problems.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

struct TorchImportOptions {
  std::string precision = "fp32";  // "fp32" or "bf16"
  std::string name;                // empty: <problem stem>_<precision>
  std::string family;              // empty: none (the library infers one from the launcher)
  bool force = false;              // overwrite an existing task folder
};

struct TorchImport {
  TaskSpec task;
  nlohmann::json summary;  // the importer's kopt.torch_import/1 document
};

// Errors: invalid_spec when the problem (or an option) is wrong, with the importer's one-line message naming
// the file and what was expected; not_found when there is no Python for the bridge; worker_error when the
// importer itself failed (torch missing, a crash), with its stderr's end.
Result<TorchImport> import_torch_problem(std::filesystem::path const& problem,
                                         std::filesystem::path const& out_dir,
                                         TorchImportOptions const& options);

// The SHA-256 (hex) of the importer's code as the importer records it in torch_abi.json ("importer"): every
// kopt_torch/*.py of the package folder by file name, each as its name, a NUL, its bytes and a NUL. A task
// folder whose record differs was written by another version of the importer (docs/pytorch.md).
Result<std::string> torch_importer_digest();

}  // namespace kopt
