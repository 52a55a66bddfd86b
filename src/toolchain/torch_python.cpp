// find_torch_python: the interpreter and the package folder of the PyTorch bridge.
#include "kopt/torch_python.hpp"

#include <cstdlib>
#include <optional>

#include "kopt/toolchain.hpp"
#include "toolchain/executable_file.hpp"

namespace kopt {

Result<std::filesystem::path> find_torch_package() {
  DataFolder const folder{"python",
                          "kopt_torch/__init__.py",
                          "KOPT_PYTHON_PACKAGE",
                          "kopt's Python package",
                          "kopt's Python package (python/kopt_torch) was not found",
                          "set KOPT_PYTHON_PACKAGE to the folder that holds kopt_torch/"};
  return find_data_folder(folder, std::nullopt);
}

ProcessSpec TorchPython::command(std::vector<std::string> const& args) const {
  ProcessSpec spec;
  spec.argv = {python.string(), "-m", "kopt_torch"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  std::string pythonpath = package_root.string();
  if (char const* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0')
    pythonpath += ":" + std::string(old);
  spec.environment_overrides = {"PYTHONPATH=" + pythonpath, "PYTHONUNBUFFERED=1",
                                "PYTHONDONTWRITEBYTECODE=1"};
  spec.stderr_target = StderrTarget::file;
  return spec;
}

Result<TorchPython> find_torch_python() {
  auto root = find_torch_package();
  if (!root) return root.error();
  TorchPython found{{}, *root, {}};
  if (char const* env = std::getenv("KOPT_PYTHON"); env != nullptr && *env != '\0') {
    if (!is_executable_file(env))
      return make_error(ErrorCode::not_found,
                        std::string("KOPT_PYTHON=") + env +
                            ": not an executable file; expected a Python 3 interpreter with torch");
    found.python = env;
    found.origin = "KOPT_PYTHON";
    return found;
  }
  if (auto venv = root->parent_path() / ".venv" / "bin" / "python3"; is_executable_file(venv)) {
    found.python = venv;
    found.origin = ".venv";
    return found;
  }
  if (auto on_path = find_program("python3")) {
    found.python = *on_path;
    found.origin = "PATH";
    return found;
  }
  return make_error(
      ErrorCode::not_found,
      "no Python for the PyTorch bridge: KOPT_PYTHON is not set, " +
          (root->parent_path() / ".venv/bin/python3").string() +
          " does not exist and python3 is not on PATH; run scripts/setup.sh or set KOPT_PYTHON");
}

}  // namespace kopt
