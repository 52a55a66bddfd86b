#include "cli/help_text.hpp"

#include "cli/exit_code.hpp"

namespace kopt::cli::help {

std::string kopt_description() {
  return "kopt makes CUDA kernels faster by search under verification: every candidate kernel is checked\n"
         "strictly against a task's reference implementation, then timed against it.";
}

std::string kopt_footer() {
  return "Typical session:\n"
         "  kopt doctor                              # is the toolchain and the GPU usable?\n"
         "  kopt init softmax.cu -o tasks/softmax    # start a task from an existing launcher\n"
         "  kopt task check tasks/softmax            # does the reference behave?\n"
         "  kopt eval tasks/softmax cand1.cu cand2.cu\n"
         "\n"
         "Settings: each has a KOPT_* environment variable and a key of the configuration files, the\n"
         "project's kopt.toml (here or in a parent folder, up to the git root) and the user's\n"
         "~/.config/kopt/config.toml. First match wins: option, environment, project file, user file,\n"
         "default. 'kopt config' shows every setting, its value and where it came from; every setting is\n"
         "listed in docs/configuration.md. NO_COLOR turns colour off.\n"
         "\n" +
         std::string(exit_code_help()) +
         "\n"
         "Errors print \"kopt: error: <message>\" on stderr; with --json a {\"error\": {...}} object is "
         "also\n"
         "printed on stdout. Run 'kopt <command> --help' for each command.";
}

std::string init_description() {
  return "Start a task from a CUDA source that holds an extern \"C\" host launcher (the reference):\n"
         "writes DIR/task.toml (with TODOs for what kopt cannot infer) and DIR/reference.cu.";
}

std::string init_footer() {
  return "Example:\n"
         "  kopt init softmax.cu -o tasks/softmax\n"
         "\n"
         "Output: the files written, then a numbered TODO list (buffer lengths, input distributions,\n"
         "size cases, tolerances, work model) and the next step, 'kopt task check DIR'.\n"
         "An existing task.toml is never overwritten unless --force is given.";
}

std::string task_description() {
  return "Work with task folders (task.toml plus CUDA sources).";
}

std::string task_check_description() {
  return "Validate a task and run its reference (and vendor baseline, if any) alone on every size case:\n"
         "the spec is parsed, inputs are generated, the reference is run twice per size to check that it is\n"
         "deterministic, and it is timed.";
}

std::string task_check_footer() {
  return "Example:\n"
         "  kopt task check tasks/softmax --seed 42\n"
         "\n"
         "Output: one row per size case: total buffer elements, bytes and flops of the work model, the\n"
         "reference time (median ± interquartile range per call), the baseline time, checks (ok,\n"
         "NONDETERMINISTIC, constant output) and notes; then warnings, e.g. outputs that are constant (a\n"
         "kernel writing a constant would pass). --json prints the same as a kopt.task_check/1 document.\n"
         "Exit code 0 when the task is usable, 2 when the spec is invalid, 3 without a usable GPU.";
}

std::string eval_description() {
  return "Verify candidate kernels against the task's reference on every size case, then time those\n"
         "that pass. A candidate is either device code only (kernel mode: a __global__ function launched\n"
         "with the task's [launch] geometry) or a .cu with an extern \"C\" launcher (launcher mode);\n"
         "--mode auto tells them apart.";
}

std::string eval_footer() {
  return "Examples:\n"
         "  kopt eval tasks/softmax cand.cu\n"
         "  kopt eval tasks/softmax a.cu b.cu --tier screen --sizes small,large --json > report.json\n"
         "  kopt eval tasks/gemm gemm_tc.cu --arch sm_90 --flag=-DTILE=128 --flag=--use_fast_math\n"
         "\n"
         "Output: a header (task, device, toolkit, seed, timing tier), then per candidate one row per size\n"
         "case: status, max absolute error, reference and candidate time (median ± interquartile range per\n"
         "call), speedup over the reference, vs vendor (speedup over the vendor baseline, when the task has\n"
         "one) and % SOL (share of the speed-of-light bound from the task's work model). Verify-only sizes\n"
         "are checked, never timed. A verdict line follows: 'ok: 3.41x geomean over the reference on 2 "
         "timed\n"
         "sizes' or 'REJECTED <status> on size ...' with compiler diagnostics for compile errors.\n"
         "Statuses: ok, compile_error, load_error, launch_error, runtime_error, timeout, wrong_output,\n"
         "nondeterministic, input_mutated, out_of_bounds_write, implausibly_fast, sandbox_violation.\n"
         "Progress goes to stderr (a bar on a terminal, plain lines otherwise, none with --json).\n"
         "Exit code 0 when every candidate is ok, 1 when any was rejected.";
}

std::string doctor_description() {
  return "Check that kopt can work here: the CUDA toolchain (nvcc, NVRTC, driver, and the optional ncu and\n"
         "compute-sanitizer) and the GPU (started through the worker, which also measures the copy\n"
         "bandwidth used for speed-of-light bounds).";
}

std::string doctor_footer() {
  return "Example:\n"
         "  kopt doctor\n"
         "\n"
         "Output: one row per tool (found or MISSING, version, path), the GPU (name, sm_XX, SMs, memory,\n"
         "driver, measured copy bandwidth, sandbox isolation), then 'ready' or a list of what is missing.\n"
         "Exit code 0 when ready, 3 when a required tool or the GPU is missing.";
}

std::string report_description() {
  return "Report one optimize run: the best kernel and its speedup per size case, best-so-far against\n"
         "evaluations, the steps from the starting kernel to the best (each with its diff and measured\n"
         "effect) and the failed candidates by status. HTML (one self-contained file) or Markdown.";
}

std::string report_footer() {
  return "Examples:\n"
         "  kopt report 3 -o report.html     # a self-contained page: inline CSS and SVG, no network needed\n"
         "  kopt report 3                    # a short Markdown summary on stdout (terminals, pull "
         "requests)\n"
         "  kopt report 3 -o summary.md\n"
         "  kopt report 3 --json > run3.json # the kopt.run_report/1 document\n"
         "  kopt report --session 2 -o s.html # a library optimize: every strategy's run and the best\n"
         "\n"
         "The format comes from --format, else from the -o extension (.html/.htm: HTML, .md: Markdown), "
         "else\n"
         "HTML; without -o the report goes to stdout (Markdown unless --format html).\n"
         "The best candidate is chosen as 'kopt export' chooses it: confirm tier first, else screen tier.\n"
         "Exit code 0 when the report was written, 2 for an unknown run, a missing store or an unwritable\n"
         "output, 4 for an internal error.";
}

}  // namespace kopt::cli::help
