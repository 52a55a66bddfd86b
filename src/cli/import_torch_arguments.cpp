#include "cli/import_torch_arguments.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"

namespace kopt::cli {

void define_import_torch_command(CLI::App& app, CliArguments& args) {
  auto* import = app.add_subcommand(
      "import-torch",
      "Turns a PyTorch problem in the KernelBench format (class Model, module-level size constants,\n"
      "get_inputs() and get_init_inputs()) into a kopt task whose reference is the module itself. The "
      "task's\n"
      "launcher takes one pointer per input, parameter, buffer and output tensor (contiguous, at the chosen\n"
      "precision) and the problem's size constants as integers; its size cases are the problem's own sizes,\n"
      "a smaller one and an odd, verify-only one where the problem's code runs with them. Candidates are "
      "then\n"
      "verified against PyTorch on fresh inputs (negative values included) and timed beside PyTorch eager\n"
      "and torch.compile.");
  import->footer(
      "Examples:\n"
      "  kopt import-torch suites/pytorch/level1/softmax.py -o /tmp/softmax\n"
      "  kopt import-torch model.py --precision bf16 -o tasks/model_bf16 --family row_softmax\n"
      "  kopt eval /tmp/softmax my_softmax.cu\n\n"
      "Writes task.toml, problem.py (the problem, unchanged) and torch_abi.json into the folder, and prints\n"
      "what it decided (the launcher, the size cases, inputs kept non-negative and why). Needs a Python "
      "with\n"
      "torch: scripts/setup.sh installs one in .venv; KOPT_PYTHON names another. Exit code 0 when the task\n"
      "was written, 2 when the problem or an option is wrong (the message names the file and what was\n"
      "expected), 3 when Python or torch is missing. docs/pytorch.md describes the bridge and the ABI.");
  auto& a = args.import_torch;
  import->add_option("problem", a.problem, "the problem file (.py)")->required();
  import->add_option("-o,--out", a.out_dir, "task folder to create (default: ./<problem name>_<precision>)");
  import->add_option("--precision", a.precision, "the tensors' precision: fp32 (default) or bf16")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  import->add_option("--name", a.name, "the task's name (default: <problem name>_<precision>)");
  import->add_option("--family", a.family,
                     "the strategy family the library should try (kopt strategies lists families)");
  import->add_flag("--force", a.force, "overwrite an existing task folder");
  import->add_flag("--json", a.json, "print the importer's kopt.torch_import/1 summary as JSON");
}

}  // namespace kopt::cli
