// How parallel kernel-mode compilation scales with the number of concurrent compiles, in threads of one
// process (kopt's CompileQueue without a compile server), in kopt's compile pool (the Compiler handing
// requests to `jobs` kopt-compile processes) and in separate processes: configurations compiled per
// second for each degree of parallelism. The pool column needs kopt-compile (next to this program, or
// --compile-server / KOPT_COMPILE_SERVER); without it the column says "-". Every request is a distinct build
// (a -D variant number) of the same configuration, so the cache never answers. docs/benchmarks.md ("Compile
// throughput") has the results.
//   kopt-bench-compile --source examples/sgemm/tunable/sgemm_tunable_kernel.cu --entry sgemm
//     --define BM=64 --define BN=128 --define BK=16 --define TM=8 --define TN=4 --define VEC=4
//     --define PAD=4 --define PREFETCH=1 --count 64 --jobs 1,2,4,8,16
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kopt/compile.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<kopt::CompileRequest> make_requests(std::string const& source, std::string const& entry,
                                                std::vector<std::string> const& defines, int first,
                                                int count) {
  std::vector<kopt::CompileRequest> requests;
  for (int i = first; i < first + count; ++i) {
    kopt::CompileRequest request;
    request.mode = kopt::CandidateMode::kernel;
    request.source = source;
    request.entry = entry;
    request.origin = "scaling.cu";
    for (auto const& define : defines) request.flags.push_back("-D" + define);
    request.flags.push_back(fmt::format("-DKOPT_SCALING_VARIANT={}", i));
    requests.push_back(std::move(request));
  }
  return requests;
}

// Compiles `requests` with `jobs` parallel compiles (in threads, or in the compile pool when `server` is
// set); returns the failures.
int compile_with(std::filesystem::path const& cache, unsigned jobs,
                 std::vector<kopt::CompileRequest> const& requests,
                 std::filesystem::path const& server = {}) {
  kopt::CompileOptions options;
  options.arch = "sm_90";
  options.cache_dir = cache;
  options.jobs = jobs;
  options.compile_server = server;
  auto compiler = kopt::Compiler::create(options);
  if (!compiler) {
    fmt::print(stderr, "{}\n", compiler.error().message);
    return static_cast<int>(requests.size());
  }
  int failures = 0;
  for (auto const& outcome : compiler->compile_all(requests)) {
    if (!outcome || !outcome->ok) ++failures;
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Kernel-mode compile throughput: threads of one process against separate processes"};
  std::string source_path;
  std::string entry;
  std::vector<std::string> defines;
  int count = 64;
  std::vector<unsigned> jobs_list{1, 2, 4, 8, 16};
  app.add_option("--source", source_path, "kernel source")->required();
  app.add_option("--entry", entry, "__global__ function name")->required();
  app.add_option("--define", defines, "a macro NAME=value given to every compile");
  app.add_option("--count", count, "compiles per measurement")->check(CLI::PositiveNumber);
  app.add_option("--jobs", jobs_list, "degrees of parallelism")->delimiter(',');
  std::string server_option;
  app.add_option(
      "--compile-server", server_option,
      "kopt-compile for the pool column (default: KOPT_COMPILE_SERVER, else next to this program)");
  CLI11_PARSE(app, argc, argv);
  std::filesystem::path const server =
      server_option.empty() ? kopt::find_compile_server() : std::filesystem::path(server_option);
  if (server.empty()) fmt::print(stderr, "no kopt-compile found: the pool column is skipped\n");

  std::ifstream in(source_path, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "{}: cannot read\n", source_path);
    return 2;
  }
  std::string const source{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::filesystem::path const root =
      std::filesystem::temp_directory_path() / fmt::format("kopt-compile-scaling-{}", ::getpid());

  fmt::print("{:>5} {:>10} {:>14} {:>14} {:>14} {:>10}\n", "jobs", "compiles", "threads cfg/s", "pool cfg/s",
             "process cfg/s", "failures");
  int variant = 0;
  int status = 0;
  for (unsigned const jobs : jobs_list) {
    auto const threaded = make_requests(source, entry, defines, variant, count);
    variant += count;
    auto t0 = Clock::now();
    int failures = compile_with(root / fmt::format("threads-{}", jobs), jobs, threaded);
    double const thread_s = std::chrono::duration<double>(Clock::now() - t0).count();

    // The compile pool: the same Compiler API, `jobs` kopt-compile processes (their start-up included).
    std::string pool_rate = "-";
    if (!server.empty()) {
      auto const pooled = make_requests(source, entry, defines, variant, count);
      variant += count;
      t0 = Clock::now();
      failures += compile_with(root / fmt::format("pool-{}", jobs), jobs, pooled, server);
      double const pool_s = std::chrono::duration<double>(Clock::now() - t0).count();
      pool_rate = fmt::format("{:.1f}", count / pool_s);
    }

    // The same number of compiles, split over `jobs` processes that each compile their share serially.
    int const base = variant;
    variant += count;
    t0 = Clock::now();
    std::vector<pid_t> children;
    for (unsigned p = 0; p < jobs; ++p) {
      int const first = base + static_cast<int>(p) * count / static_cast<int>(jobs);
      int const last = base + static_cast<int>(p + 1) * count / static_cast<int>(jobs);
      pid_t const child = ::fork();
      if (child == 0) {
        auto const share = make_requests(source, entry, defines, first, last - first);
        std::_Exit(compile_with(root / fmt::format("processes-{}-{}", jobs, p), 1, share) == 0 ? 0 : 1);
      }
      children.push_back(child);
    }
    for (pid_t const child : children) {
      int child_status = 0;
      ::waitpid(child, &child_status, 0);
      if (!WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0) ++failures;
    }
    double const process_s = std::chrono::duration<double>(Clock::now() - t0).count();
    fmt::print("{:>5} {:>10} {:>14.1f} {:>14} {:>14.1f} {:>10}\n", jobs, count, count / thread_s, pool_rate,
               count / process_s, failures);
    if (failures > 0) status = 1;
  }
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  return status;
}
