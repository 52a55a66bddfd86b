// `kopt import-torch PROBLEM.py`: runs kopt_torch's importer, then loads the task it wrote as any task is
// loaded, so a task that kopt would refuse is reported here and not at its first evaluation.
#include <fmt/format.h>

#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "kopt/task.hpp"
#include "kopt/torch_import.hpp"

namespace kopt::cli {
namespace {

std::string describe_sizes(nlohmann::json const& summary) {
  std::string out;
  auto const sizes = summary.find("sizes");
  if (sizes == summary.end() || !sizes->is_array()) return out;
  for (auto const& size : *sizes) {
    std::string values;
    if (auto const v = size.find("values"); v != size.end() && v->is_object()) {
      for (auto const& [name, value] : v->items())
        values += fmt::format("{}{}={}", values.empty() ? "" : " ", name, value.dump());
    }
    out += fmt::format("  {:<10} {}{}\n", size.value("name", "?"), values,
                       size.value("verify_only", false) ? "  (verify only)" : "");
  }
  return out;
}

std::string launcher_text(Signature const& signature) {
  std::string params;
  for (auto const& p : signature.params)
    params += fmt::format("{}{} {}", params.empty() ? "" : ", ", p.c_type, p.name);
  return fmt::format("extern \"C\" void {}({})", signature.function, params);
}

}  // namespace

int run_import_torch(ImportTorchArgs const& args, Console const& console) {
  std::string const out_dir = args.out_dir.empty()
                                  ? std::filesystem::path(args.problem).stem().string() + "_" + args.precision
                                  : args.out_dir;
  auto imported = import_torch_problem(
      args.problem, out_dir, TorchImportOptions{args.precision, args.name, args.family, args.force});
  if (!imported) {
    Error const& error = imported.error();
    ErrorOrigin const origin =
        error.code == ErrorCode::invalid_spec ? ErrorOrigin::input : ErrorOrigin::environment;
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  }
  auto const& summary = imported->summary;
  auto const* task = &imported->task;
  if (args.json) {
    console.out << summary.dump(2) << "\n";
    return to_int(ExitCode::success);
  }
  console.out << fmt::format("wrote {} ({}, {} size case{})\n\nlauncher:\n  {}\n\nsize cases:\n{}", out_dir,
                             task->name, task->sizes.size(), task->sizes.size() == 1 ? "" : "s",
                             launcher_text(task->signature), describe_sizes(summary));
  if (auto const notes = summary.find("notes");
      notes != summary.end() && notes->is_array() && !notes->empty()) {
    console.out << "\nnotes:\n";
    for (auto const& note : *notes)
      console.out << "  - " << (note.is_string() ? note.get<std::string>() : note.dump()) << "\n";
  }
  console.out << fmt::format("\nnext:\n  kopt eval {} my_kernel.cu\n  kopt optimize {}\n", out_dir, out_dir);
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
