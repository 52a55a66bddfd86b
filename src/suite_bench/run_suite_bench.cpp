// `kopt bench`'s loop: each task tuned by the built-in proposer and its confirmed best turned into rows;
// a task no strategy applies to gets its reference timed as the candidate (speedup 1 by definition).
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <set>
#include <span>

#include "kopt/measure.hpp"
#include "kopt/store.hpp"
#include "kopt/suite_bench.hpp"
#include "kopt/text.hpp"
#include "suite_bench/gap_evidence.hpp"
#include "suite_bench/torch_rows.hpp"

namespace kopt {
namespace {

// The same bound as the row's % of speed of light: against the peak of the task's math.
bool is_memory_bound(SizeResult const& size, DeviceCeilings const& ceilings, bool tensor) {
  SpeedOfLight const sol = speed_of_light(size.bytes, size.flops, ceilings, tensor);
  return sol.memory_us > 0.0 && sol.memory_us >= sol.compute_us;
}

// What a task's row reports as kopt's kernel.
enum class RowSource {
  candidate,       // the confirmed best of the proposer
  reference_kept,  // the best was slower than the reference overall, so kopt keeps the reference
  reference_only   // no strategy applies (or --no-search): the reference alone
};

void add_rows(BenchSummary& summary, SuiteTask const& task, TaskSpec const& spec,
              CandidateReport const& report, std::string const& strategy, std::optional<std::int64_t> run,
              DeviceCeilings const& ceilings, RowSource source) {
  std::vector<SizeResult const*> timed;
  for (auto const& s : report.sizes) {
    if (!s.verify_only) timed.push_back(&s);
  }
  for (auto const* s : timed) {
    BenchRow row;
    row.task = task.id;
    row.scenario = task.scenario;
    row.family = spec.family_label();
    row.size = s->size;
    row.status = source == RowSource::reference_only ? "no_strategy" : std::string(to_string(report.status));
    row.strategy = source == RowSource::reference_kept ? "reference kept" : strategy;
    row.run = run;
    if (s->reference) row.reference_us = s->reference->us.median;
    if (s->baseline) row.baseline_us = s->baseline->us.median;
    if (source == RowSource::reference_kept && s->reference) {
      // kopt's answer is the reference itself: speedup 1 by definition, its own vendor ratio and % of SOL.
      row.best_us = row.reference_us;
      row.best_spread = s->reference->us.relative_spread();
      row.speedup = 1.0;
      if (row.baseline_us) row.vs_vendor = *row.baseline_us / *row.reference_us;
      if (s->sol_us > 0.0) row.pct_of_sol = s->sol_us / *row.reference_us * 100.0;
      if (s->bytes) row.achieved_gbps = *s->bytes / *row.reference_us / 1e3;
      row.note = fmt::format("the best strategy ({}) measured {:.2f}x on this size; the reference is kept",
                             strategy, s->speedup.value_or(0.0));
    } else if (s->candidate && report.status == CandidateStatus::ok) {
      row.best_us = s->candidate->us.median;
      row.best_spread = s->candidate->us.relative_spread();
      row.speedup = s->speedup;
      row.vs_vendor = s->vs_baseline;
      row.pct_of_sol = s->pct_of_sol;
      row.achieved_gbps = s->achieved_gbps;
    }
    row.memory_bound = is_memory_bound(*s, ceilings, tensor_cores_allowed(spec));
    row.largest = s == timed.back();
    if (report.status != CandidateStatus::ok) row.note = report.message;
    summary.rows.push_back(std::move(row));
  }
}

// A task that has no timed rows: `status` (error, import_error, no_strategy) and why.
void add_error_row(BenchSummary& summary, SuiteTask const& task, std::string family,
                   std::string const& message, std::string status = "error") {
  BenchRow row;
  row.task = task.id;
  row.scenario = task.scenario;
  row.family = std::move(family);
  row.size = "-";
  row.status = std::move(status);
  row.largest = true;
  row.note = message;
  summary.rows.push_back(std::move(row));
}

// The confirmed best of a proposer run as the evaluator takes it (for profiling).
std::optional<CandidateInput> stored_best(Store& store, RunId run) {
  auto best = store.best_verified_candidate(run);
  if (!best || !*best) return std::nullopt;
  Candidate const& stored = (*best)->candidate.candidate;
  CandidateInput input;
  input.name = stored.key.value();
  input.source = stored.source;
  for (auto const& flag : stored.flags) {
    if (flag.is_string()) input.flags.push_back(flag.get<std::string>());
  }
  input.mode = stored.mode == "launcher" ? CandidateMode::launcher : CandidateMode::kernel;
  return input;
}

// The CUPTI activity a report recorded on its largest timed size case, with the timed call time.
std::optional<KernelActivity> largest_activity(CandidateReport const& report) {
  for (auto it = report.sizes.rbegin(); it != report.sizes.rend(); ++it) {
    if (!it->verify_only) return activity_for_profile(*it);
  }
  return std::nullopt;
}

CandidateInput reference_input(std::string text) {
  CandidateInput reference;
  reference.name = "reference";
  reference.source = std::move(text);
  reference.mode = CandidateMode::launcher;
  return reference;
}

// With --profile-gaps: Nsight Compute evidence on the task's rows (from `first_row`) that miss a goal.
void profile_gaps(BenchSummary& summary, std::size_t first_row, TaskSpec const& spec,
                  std::optional<CandidateInput> const& kernel, std::optional<KernelActivity> const& activity,
                  BenchOptions const& options, CandidateEvaluator& evaluator,
                  std::function<void(std::string)> const& say) {
  if (!options.profile_gaps || !kernel || first_row >= summary.rows.size()) return;
  BenchRow* const row = bench_detail::gap_row(
      std::span<BenchRow>(summary.rows.data() + first_row, summary.rows.size() - first_row));
  if (row == nullptr) return;
  say("profiling the gap under Nsight Compute");
  bench_detail::add_gap_evidence(*row, spec, *kernel, activity, options, evaluator);
}

// One task's rows: tuned by the proposer and confirmed, or (no strategy, --no-search) its reference timed
// as the candidate; a failure is an error row.
void bench_task(SuiteTask const& task, Result<TaskSpec> const& spec, StrategyLibrary const& library,
                BenchOptions const& options, CandidateEvaluator& evaluator, Store& store,
                DeviceCeilings const& ceilings, BenchSummary& summary,
                std::function<void(std::string)> const& say) {
  if (!task.import_error.empty()) {
    add_error_row(summary, task, "", task.import_error, "import_error");
    say("import error: " + task.import_error);
    return;
  }
  if (!spec) {
    add_error_row(summary, task, "", spec.error().message);
    say("error: " + spec.error().message);
    return;
  }
  bool const torch = spec->reference.is_torch();
  // A PyTorch problem without a family is one the importer could not read as an operation of the library:
  // every strategy whose contract merely fits its launcher would compute something else (level1/log_softmax,
  // before its family existed, bound 17, none right), and trying them costs a reference process and device
  // time for nothing.
  bool const familyless_torch = torch && spec->family.empty() && !spec->is_chain();
  bool const has_strategy = !familyless_torch && library_applies(library, *spec, options.propose.arch_sm);
  if (torch && (!options.search || !has_strategy)) {
    // PyTorch's own timings come with a candidate's evaluation: without a kernel there is nothing to time.
    std::string const why =
        !options.search    ? "not searched"
        : familyless_torch ? "no family of the library matches this problem (import-torch inferred none; "
                             "import it with --family to try one)"
                           : "no strategy of the library applies to this problem";
    add_error_row(summary, task, spec->family_label(), why, "no_strategy");
    say("no strategy applies");
    return;
  }
  if (options.search && has_strategy) {
    if (torch) {
      // Done before the search anyway (its clock does not count it); a step of its own so that the log's
      // time stamps say how long PyTorch's side takes: the process, every trial's outputs, eager and
      // torch.compile timed.
      say("starting the PyTorch reference");
      if (auto ready = evaluator.build_trusted_code(*spec); !ready) {
        add_error_row(summary, task, spec->family_label(), ready.error().message);
        say("error: " + ready.error().message);
        return;
      }
    }
    say("tuning");
    auto outcome = propose_and_tune(library, *spec, options.propose, evaluator, store);
    if (!outcome) {
      add_error_row(summary, task, spec->family_label(), outcome.error().message);
      say("error: " + outcome.error().message);
      return;
    }
    if (!outcome->confirmed) {
      add_error_row(summary, task, spec->family_label(), "no strategy produced a verified candidate");
      say("no verified candidate");
      return;
    }
    auto const& confirmed = *outcome->confirmed;
    // A PyTorch problem reports kopt's kernel as measured, slower than eager or not: fast_p judges it.
    bool const slower = !torch && confirmed.status == CandidateStatus::ok && confirmed.geomean_speedup &&
                        *confirmed.geomean_speedup < 1.0;
    std::size_t const first_row = summary.rows.size();
    add_rows(summary, task, *spec, confirmed, outcome->best_strategy.value_or(""),
             outcome->best_run ? std::optional<std::int64_t>(outcome->best_run->value()) : std::nullopt,
             ceilings, slower ? RowSource::reference_kept : RowSource::candidate);
    if (torch) {
      bench_detail::finish_torch_rows(
          std::span<BenchRow>(summary.rows.data() + first_row, summary.rows.size() - first_row),
          bench_detail::read_torch_abi_notes(spec->dir), confirmed);
    }
    if (options.profile_gaps) {
      std::optional<CandidateInput> kernel;
      std::optional<KernelActivity> activity;
      if (!slower && outcome->best_run) {
        kernel = stored_best(store, *outcome->best_run);
        activity = largest_activity(confirmed);
      } else if (auto text = read_text_file(spec->reference.path)) {
        kernel = reference_input(std::move(*text));
      }
      profile_gaps(summary, first_row, *spec, kernel, activity, options, evaluator, say);
    }
    say(fmt::format("best {} ({})", to_string(outcome->confirmed->status),
                    outcome->best_strategy.value_or("-")));
    return;
  }
  // No strategy (or --no-search): the reference itself, timed on the confirm tier with the baseline.
  say(has_strategy ? "reference and baseline" : "no strategy applies: reference and baseline");
  auto text = read_text_file(spec->reference.path);
  if (!text) {
    add_error_row(summary, task, spec->family_label(), "cannot read " + spec->reference.path.string());
    return;
  }
  CandidateInput const reference = reference_input(std::move(*text));
  auto report = evaluator.evaluate_one(*spec, reference, TimingTier::confirm);
  if (!report) {
    add_error_row(summary, task, spec->family_label(), report.error().message);
    return;
  }
  std::size_t const first_row = summary.rows.size();
  add_rows(summary, task, *spec, *report, "", std::nullopt, ceilings, RowSource::reference_only);
  profile_gaps(summary, first_row, *spec, reference, largest_activity(*report), options, evaluator, say);
}

// A task's spec; a PyTorch problem that was not imported has none (bench_task writes its import_error row).
Result<TaskSpec> load_suite_task(SuiteTask const& task) {
  if (!task.import_error.empty()) return make_error(ErrorCode::invalid_spec, task.import_error);
  return load_task(task.dir);
}

std::string join_versions(std::set<std::string> const& versions) {
  std::string out;
  for (auto const& v : versions) out += (out.empty() ? "" : ", ") + v;
  return out;
}

}  // namespace

Result<BenchSummary> run_suite_bench(std::vector<SuiteTask> const& tasks, StrategyLibrary const& library,
                                     BenchOptions const& options, CandidateEvaluator& evaluator, Store& store,
                                     std::function<void(BenchProgress const&)> const& progress) {
  auto const start = std::chrono::steady_clock::now();
  BenchSummary summary;
  summary.started_at = utc_now_iso8601();
  auto const target = evaluator.target();
  summary.device = target.device_name;
  summary.torch = options.torch;
  std::set<std::string> torch_versions;  // of the imported tasks (torch_abi.json)
  std::size_t index = 0;
  std::optional<Result<TaskSpec>> next;  // the next task, loaded when it was handed to prepare()
  for (auto const& task : tasks) {
    ++index;
    auto const say = [&](std::string message) {
      if (progress) progress(BenchProgress{index, tasks.size(), task.id, std::move(message), nullptr});
    };
    Result<TaskSpec> const spec = next ? std::move(*next) : load_suite_task(task);
    next.reset();
    if (index < tasks.size()) {  // the next task's reference and baseline build while this one runs
      next = load_suite_task(tasks[index]);
      if (*next) evaluator.prepare(**next);
    }
    if (summary.torch && spec) {
      if (auto version = bench_detail::read_torch_abi_notes(spec->dir).torch; !version.empty())
        torch_versions.insert(std::move(version));
      summary.torch->torch_version = torch_versions.empty() ? "-" : join_versions(torch_versions);
    }
    bench_task(task, spec, library, options, evaluator, store, target.ceilings, summary, say);
    if (progress) {  // the rows so far, for a caller that writes them as it goes
      summarise_bench(summary);
      summary.elapsed_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress(BenchProgress{index, tasks.size(), task.id, "done", &summary});
    }
  }
  summarise_bench(summary);
  summary.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace kopt
