// `kopt bench SUITE...`: every task of a suite tuned by the built-in proposer and confirmed against the
// reference and the vendor baseline; a table, geomeans, the goals, and bench.json/.md/.svg (docs/bench.md).
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <ostream>

#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/search_evaluator.hpp"
#include "cli/terminal.hpp"
#include "kopt/bench_report.hpp"
#include "kopt/json_values.hpp"
#include "kopt/store.hpp"
#include "kopt/suite_bench.hpp"
#include "kopt/task.hpp"
#include "kopt/text.hpp"

namespace kopt::cli {
namespace {

Status write_outputs(std::string const& out_dir, BenchSummary const& s) {
  if (out_dir.empty()) return Ok{};
  std::filesystem::path const out(out_dir);
  for (auto const& [name, text] :
       {std::pair{"bench.json", json_text(bench_to_json(s)) + "\n"},
        std::pair{"bench.md", render_bench_markdown(s)}, std::pair{"bench.svg", render_bench_svg(s)}}) {
    if (!write_text_file(out / name, text)) {
      return make_error(ErrorCode::io_error, "--out: cannot write " + (out / name).string());
    }
  }
  return Ok{};
}

int run_bench_merge(BenchArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  if (!args.roots.empty())
    return fail(make_error(ErrorCode::invalid_argument, "--merge: expected no suite folder"));
  std::vector<BenchSummary> parts;
  for (auto const& file : args.merge) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return fail(make_error(ErrorCode::not_found, "--merge '" + file + "': cannot read the file"));
    auto json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded())
      return fail(make_error(ErrorCode::invalid_spec, "--merge '" + file + "': not JSON"));
    auto part = bench_from_json(json, file);
    if (!part) return fail(part.error());
    parts.push_back(std::move(*part));
  }
  auto const merged = merge_benches(parts);
  if (!args.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(args.out_dir, ec);
    if (auto status = write_outputs(args.out_dir, merged); !status) return fail(status.error());
  }
  console.out << (args.json ? json_text(bench_to_json(merged)) + "\n" : render_bench_text(merged));
  return 0;
}

// Where PyTorch problems are imported: --tasks, else <--out>/tasks, else .kopt/torch-tasks.
TorchTaskImport torch_import_request(BenchArgs const& args) {
  TorchTaskImport request;
  request.tasks_root = !args.tasks_dir.empty() ? std::filesystem::path(args.tasks_dir)
                       : args.out_dir.empty()  ? std::filesystem::path(".kopt") / "torch-tasks"
                                               : std::filesystem::path(args.out_dir) / "tasks";
  request.precision = args.precision;
  request.force = args.force_import;
  return request;
}

// The table's header for PyTorch problems; the torch version is filled from the imported tasks.
TorchBenchHeader torch_header(BenchArgs const& args, std::vector<std::filesystem::path> const& roots) {
  TorchBenchHeader header;
  for (auto const& root : args.roots) header.corpus += (header.corpus.empty() ? "" : " ") + root;
  header.corpus_commit = corpus_commit(roots.front());
  header.precision = args.precision;
  header.torch_version = "-";
  return header;
}

// --import-only: the problems imported (or reused) into the tasks folder, a line each with the family the
// importer inferred, and no GPU touched. Exit code 0 when every problem imported.
int run_torch_import_only(BenchArgs const& args, std::vector<SuiteTask> const& problems,
                          Console const& console) {
  ProgressPrinter printer(console.err, progress_style_for(args.json, is_terminal(stderr)),
                          terminal_width(stderr));
  auto const request = torch_import_request(args);
  auto const tasks = import_torch_tasks(problems, request, [&](std::size_t i, SuiteTask const& problem) {
    printer.update(EvalProgress{i - 1, problems.size(), problem.id + ": importing"});
  });
  printer.finish();
  nlohmann::json out = nlohmann::json::array();
  std::size_t failed = 0;
  for (auto const& task : tasks) {
    std::string family;
    if (task.import_error.empty()) {
      if (auto spec = load_task(task.dir)) family = spec->family_label();
    } else {
      ++failed;
    }
    out.push_back({{"problem", task.id},
                   {"task_dir", task.import_error.empty() ? task.dir.string() : ""},
                   {"family", family},
                   {"import_error", task.import_error}});
    if (!args.json) {
      console.out << fmt::format("{:<40} {}\n", task.id,
                                 !task.import_error.empty() ? "import error: " + task.import_error
                                 : family.empty()           ? "imported, no family"
                                                            : "imported, family " + family);
    }
  }
  if (args.json) {
    console.out << json_text(nlohmann::json{{"tasks_dir", request.tasks_root.string()},
                                            {"precision", args.precision},
                                            {"problems", out}})
                << '\n';
  } else {
    console.out << fmt::format("{} of {} problems imported into {} ({})\n", tasks.size() - failed,
                               tasks.size(), request.tasks_root.string(), args.precision);
  }
  return to_int(failed == 0 ? ExitCode::success : ExitCode::rejected);
}

}  // namespace

int run_bench(BenchArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  if (!args.merge.empty()) return run_bench_merge(args, console);
  if (args.roots.empty()) {
    return fail(make_error(ErrorCode::invalid_argument,
                           "bench: expected a suite folder (e.g. suites/) or --merge FILES"),
                ErrorOrigin::input);
  }
  if (auto status = check_store_to_write(args.store); !status)
    return fail(status.error(), ErrorOrigin::input);
  std::vector<std::filesystem::path> roots(args.roots.begin(), args.roots.end());
  bool const torch = args.torch || is_torch_corpus(roots);
  if (torch && args.no_search) {
    return fail(
        make_error(ErrorCode::invalid_argument,
                   "--no-search: not available for PyTorch problems (eager and torch.compile are timed "
                   "with a kernel's evaluation)"),
        ErrorOrigin::input);
  }
  auto tasks =
      torch ? discover_torch_problems(roots, args.filters) : discover_suite_tasks(roots, args.filters);
  if (!tasks) return fail(tasks.error(), ErrorOrigin::input);
  if (!args.shard.empty()) {
    auto shard = parse_bench_shard(args.shard);
    if (!shard) return fail(shard.error(), ErrorOrigin::input);
    *tasks = shard_tasks(std::move(*tasks), *shard);
  }
  if (tasks->empty()) {
    return fail(
        make_error(ErrorCode::not_found,
                   std::string(torch ? "no PyTorch problem (a .py file with class Model)" : "no task.toml") +
                       " under the given folders matches the filters" +
                       (args.shard.empty() ? "" : " in shard " + args.shard)),
        ErrorOrigin::input);
  }
  if (args.import_only) {
    if (!torch) {
      return fail(
          make_error(ErrorCode::invalid_argument,
                     "--import-only: the folders hold no PyTorch problems (a .py file with class Model)"),
          ErrorOrigin::input);
    }
    return run_torch_import_only(args, *tasks, console);
  }
  if (!args.arch.empty()) {
    if (auto status = check_arch(args.arch); !status) return fail(status.error(), ErrorOrigin::input);
  }
  if (!args.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(args.out_dir, ec);
    if (ec)
      return fail(make_error(ErrorCode::io_error, "--out '" + args.out_dir + "': " + ec.message()),
                  ErrorOrigin::input);
  }
  auto root = find_strategy_library(
      args.library.empty() ? std::nullopt : std::optional<std::filesystem::path>(args.library));
  if (!root) return fail(root.error(), ErrorOrigin::input);
  auto library = load_strategy_library(*root);
  if (!library) return fail(library.error(), ErrorOrigin::input);
  std::vector<std::string> notes;
  auto evaluator = make_search_evaluator({args.evaluator, args.seed, args.arch}, notes);
  if (!evaluator) return fail(evaluator.error(), evaluator_error_origin(evaluator.error()));
  for (std::string const& note : notes) report_warning(note, console.err);
  // Opened (created) only now: bad input or a missing GPU leaves no store behind.
  auto store = open_store_to_write(args.store);
  if (!store) return fail(store.error(), ErrorOrigin::input);

  BenchOptions options;
  options.search = !args.no_search;
  options.profile_gaps = args.profile_gaps;
  options.ncu = args.ncu;
  options.propose.budget = args.budget;
  options.propose.max_wall_seconds = args.time_per_task_s;
  options.propose.search = args.search;
  options.propose.seed = args.seed;
  options.propose.only = args.use;
  options.propose.size_dispatch = !args.no_size_dispatch;
  options.propose.arch_sm = arch_number((*evaluator)->target().arch);

  ProgressPrinter printer(console.err, progress_style_for(args.json, is_terminal(stderr)),
                          terminal_width(stderr));
  if (torch) {
    options.torch = torch_header(args, roots);
    *tasks =
        import_torch_tasks(*tasks, torch_import_request(args), [&](std::size_t i, SuiteTask const& problem) {
          printer.update(EvalProgress{i - 1, tasks->size(), problem.id + ": importing"});
        });
  }
  // The files are rewritten after every task, so an interrupted bench leaves the tasks it finished.
  auto summary = run_suite_bench(*tasks, *library, options, **evaluator, *store, [&](BenchProgress const& p) {
    if (p.partial != nullptr) {
      (void)write_outputs(args.out_dir, *p.partial);
      return;
    }
    printer.update(EvalProgress{p.task_index - 1, p.task_count, p.task + ": " + p.message});
  });
  printer.finish();
  if (!summary) return fail(summary.error(), ErrorOrigin::environment);

  if (auto status = write_outputs(args.out_dir, *summary); !status)
    return fail(status.error(), ErrorOrigin::input);
  if (args.json) {
    console.out << json_text(bench_to_json(*summary)) << '\n';
  } else {
    console.out << render_bench_text(*summary);
    if (!args.out_dir.empty())
      console.out << fmt::format("\nwrote {0}/bench.json, {0}/bench.md, {0}/bench.svg\n", args.out_dir);
  }
  bool const all_ok = std::all_of(summary->rows.begin(), summary->rows.end(), [](BenchRow const& r) {
    return r.status == "ok" || r.status == "no_strategy";
  });
  return to_int(all_ok ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
