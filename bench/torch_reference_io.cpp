// How long kopt's side of the PyTorch bridge takes per trial of a large problem (docs/pytorch.md, "Status"):
// a ReLU of ROWS x COLS floats (1 GB in, 1 GB out by default) is imported, its reference process started on
// the CPU, and TorchReference::results_for computes the results files of one size case for successive seeds
// (each seed: the task's trials, plus the verification after timing), as a search does before its first
// candidate. Prints, per seed, the seconds of results_for and of generating the same trials' inputs alone,
// then the medians: the difference is the round trip (input file, the Python process's read, forward and
// write, the outputs read back, masked and written again for the worker).
//
//   kopt-bench-torch-reference [--rows 8192] [--cols 32768] [--repeat 3] [--work-dir DIR]
//
// --work-dir: the folder the bridge's files go under (default: a fresh one in the system's temporary folder),
// to compare a disk against a tmpfs such as /dev/shm. Needs the bridge's Python with torch (scripts/setup.sh,
// KOPT_PYTHON).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "eval/torch_reference.hpp"
#include "kopt/child_process.hpp"
#include "kopt/inputs.hpp"
#include "kopt/task.hpp"
#include "kopt/torch_python.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

constexpr char const* kProblem = R"(import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


rows = {}
cols = {}


def get_inputs():
    return [torch.rand(rows, cols)]


def get_init_inputs():
    return []
)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Seconds per trial of kopt's side of the PyTorch bridge on a large ReLU, reference on the CPU"};
  long rows = 8192;
  long cols = 32768;
  int repeat = 3;
  std::string work_dir;
  app.add_option("--rows", rows, "rows of the ReLU's input")->check(CLI::PositiveNumber);
  app.add_option("--cols", cols, "columns of the ReLU's input")->check(CLI::PositiveNumber);
  app.add_option("--repeat", repeat, "seeds to compute (each the task's trials and one more)")
      ->check(CLI::PositiveNumber);
  app.add_option("--work-dir", work_dir, "folder for the bridge's files (default: a fresh temporary one)");
  CLI11_PARSE(app, argc, argv);

  namespace fs = std::filesystem;
  fs::path const scratch =
      fs::temp_directory_path() / fmt::format("kopt-bench-torch-reference-{}", ::getpid());
  fs::create_directories(scratch);
  fs::path const problem = scratch / "relu_large.py";
  std::ofstream(problem) << fmt::format(kProblem, rows, cols);
  auto python = kopt::find_torch_python();
  if (!python) {
    std::fprintf(stderr, "%s\n", python.error().message.c_str());
    return 2;
  }
  kopt::ProcessSpec spec = python->command({"import", problem.string(), "-o", (scratch / "task").string()});
  auto imported = kopt::run_process(spec, {});
  if (!imported || !imported->status("kopt_torch import").ok()) {
    std::fprintf(stderr, "importing %s failed\n", problem.c_str());
    return 2;
  }
  auto task = kopt::load_task(scratch / "task");
  if (!task) {
    std::fprintf(stderr, "%s\n", task.error().message.c_str());
    return 2;
  }
  auto const size = std::find_if(task->sizes.begin(), task->sizes.end(),
                                 [](kopt::SizeCase const& s) { return s.name == "problem"; });
  if (size == task->sizes.end()) {
    std::fprintf(stderr, "the imported task has no 'problem' size case\n");
    return 2;
  }
  auto const started = std::chrono::steady_clock::now();
  auto reference =
      kopt::TorchReference::start(*task, -1, work_dir.empty() ? scratch / "work" : fs::path(work_dir));
  if (!reference) {
    std::fprintf(stderr, "%s\n", reference.error().message.c_str());
    return 2;
  }
  std::printf(
      "%ld x %ld floats (%.2f GB in, as much out), %d trials + 1 per seed; reference process started in "
      "%.2f s\n",
      rows, cols, 4.0 * static_cast<double>(rows) * static_cast<double>(cols) / 1e9, task->trials,
      seconds_since(started));
  std::vector<double> per_trial;
  std::vector<double> generate_per_trial;
  for (int r = 0; r < repeat; ++r) {
    std::uint64_t const seed = 1000 + static_cast<std::uint64_t>(r);
    auto const t0 = std::chrono::steady_clock::now();
    auto files = (*reference)->results_for(*task, {&*size}, seed);
    double const total = seconds_since(t0);
    if (!files) {
      std::fprintf(stderr, "%s\n", files.error().message.c_str());
      return 1;
    }
    auto const t1 = std::chrono::steady_clock::now();
    for (auto const& file : *files) {
      auto inputs = kopt::generate_inputs(*task, *size, file.seed, file.trial);
      if (!inputs) return 1;
    }
    double const generate = seconds_since(t1);
    auto const n = static_cast<double>(files->size());
    per_trial.push_back(total / n);
    generate_per_trial.push_back(generate / n);
    std::printf(
        "seed %d: %zu trials in %.2f s, %.2f s a trial; generating their inputs alone %.2f s a trial\n", r,
        files->size(), total, total / n, generate / n);
  }
  std::printf("median: %.2f s a trial, of which generating the inputs %.2f s\n", median(per_trial),
              median(generate_per_trial));
  reference->reset();
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return 0;
}
