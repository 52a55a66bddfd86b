// How kopt runs its PyTorch bridge (docs/pytorch.md): the Python interpreter with torch, and the folder
// that holds kopt's own package `kopt_torch` (python/ in the source tree, share/kopt/python installed).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kopt/child_process.hpp"
#include "kopt/result.hpp"

namespace kopt {

struct TorchPython {
  std::filesystem::path python;        // the interpreter
  std::filesystem::path package_root;  // the folder holding kopt_torch/ (put first on PYTHONPATH)
  std::string origin;                  // where the interpreter came from: "KOPT_PYTHON", ".venv", "PATH"

  // `python -m kopt_torch <args...>` with the package on PYTHONPATH, unbuffered, no bytecode written into
  // the source tree; stderr to a file (a long-lived child read by lines must not block on it).
  ProcessSpec command(std::vector<std::string> const& args) const;
};

// $KOPT_PYTHON (an executable file; an error naming it otherwise), else .venv/bin/python3 beside the
// package folder's parent (what scripts/setup.sh makes), else python3 on PATH. The package folder is found
// like the strategy library ($KOPT_PYTHON_PACKAGE, or python/ beside or above the executable). Whether
// that interpreter can import torch shows at its first command, whose error says how to fix it.
Result<TorchPython> find_torch_python();

// The folder that holds kopt_torch/ (the package alone, found like the data folders; no interpreter needed).
Result<std::filesystem::path> find_torch_package();

}  // namespace kopt
