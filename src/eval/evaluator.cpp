#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>

#include "eval/artifact_requests.hpp"
#include "eval/evaluator_impl.hpp"
#include "eval/reply_mapping.hpp"
#include "eval/sanitizer.hpp"
#include "eval/size_metrics.hpp"
#include "kopt/elapsed.hpp"
#include "kopt/eval.hpp"
#include "kopt/host_name.hpp"
#include "kopt/text.hpp"
#include "kopt/toolchain.hpp"
#include "kopt/worker/client.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"

namespace kopt {

std::uint64_t draw_seed() {
  std::random_device entropy;
  return (std::uint64_t{entropy()} << 32U) ^ entropy();
}

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// "compilation failed: <the compiler's first error line>" (or its first line when none says error).
std::string compile_failure_message(std::string const& diagnostics) {
  std::string first;
  std::size_t start = 0;
  while (start < diagnostics.size()) {
    std::size_t end = diagnostics.find('\n', start);
    if (end == std::string::npos) end = diagnostics.size();
    std::string_view const line(diagnostics.data() + start, end - start);
    if (first.empty() && line.find_first_not_of(" \t\r") != std::string_view::npos) first = line;
    if (line.find("error") != std::string_view::npos) return "compilation failed: " + std::string(line);
    start = end + 1;
  }
  return first.empty() ? "compilation failed (the compiler said nothing)" : "compilation failed: " + first;
}

namespace {

std::filesystem::path resolve_worker_path(EvalOptions const& options) {
  if (!options.worker_path.empty()) return options.worker_path;
  if (char const* env = std::getenv("KOPT_WORKER"); env != nullptr && *env != '\0') return env;
  return executable_dir() / "kopt-worker";
}

worker::DeadlineScaling deadline_scaling(EvalOptions const& o) {
  return worker::DeadlineScaling{o.timeout_factor, o.timeout_floor_ms, o.timeout_ceiling_ms};
}

// The text of a progress event, for the progress line; empty when the event cannot be read.
std::string progress_text(json const& event) {
  auto progress = worker::parse_progress_event(event);
  return progress ? progress->what : std::string();
}

// Whether a PyTorch task's evaluation times torch.compile (decided 2026-12-06, docs/pytorch.md "Time
// accounting"): at the confirm tier only. A search ranks its candidates against eager and `kopt bench` takes
// both baselines from the confirm tier: the screen tier's compile and its samples were seconds per size case
// of a corpus run that nothing read.
bool times_torch_compile(EvalOptions const& o) {
  return o.time_baseline && o.tier == TimingTier::confirm;
}

// A PyTorch task's reply with PyTorch's timings as its reference (eager) and baseline (torch.compile),
// for every size case the candidate was timed on: the worker times only the candidate then.
Result<json> with_torch_timings(json const& reply, TaskSpec const& task, TorchReference& torch,
                                TimingTier tier, bool time_baseline, std::int64_t flush_bytes) {
  auto parsed = worker::parse_evaluate_reply(reply);
  if (!parsed) return reply;  // apply_reply rejects it and says why
  for (auto& entry : parsed->sizes) {
    if (!entry.candidate) continue;
    auto const size = std::find_if(task.sizes.begin(), task.sizes.end(),
                                   [&](SizeCase const& s) { return s.name == entry.size; });
    if (size == task.sizes.end()) continue;
    auto timings = torch.timings(*size, tier, flush_bytes, time_baseline);
    if (!timings) return timings.error();
    entry.reference = timings->eager;
    entry.baseline = timings->compiled;
    if (!timings->compile_note.empty())
      entry.timing_note =
          entry.timing_note ? *entry.timing_note + "; " + timings->compile_note : timings->compile_note;
  }
  return worker::to_json(*parsed);
}

// `kopt task check` of a PyTorch task (docs/pytorch.md): on every selected size case the reference process
// computes trial 0 twice (deterministic, not constant) and, on timed ones, times PyTorch eager (the
// reference timing) and torch.compile (the baseline's); the worker is not involved. The result goes through
// the same mapping as the worker's check_task reply.
Result<TaskCheckReport> check_torch_task(Evaluator::Impl& impl, TaskSpec const& task, TaskCheckReport report,
                                         ProgressCallback const& progress) {
  auto torch = impl.torch_reference(task);
  if (!torch) return torch.error();
  auto const sizes = select_size_cases(task, impl.options.sizes);
  worker::CheckTaskReply reply;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SizeCase const& size = *sizes[i];
    if (progress) progress(EvalProgress{1 + i, 1 + sizes.size(), "PyTorch reference on " + size.name});
    auto check = (*torch)->self_check(task, size, report.seed);
    if (!check) return check.error();
    worker::CheckTaskSize entry;
    entry.size = size.name;
    entry.verify_only = size.verify_only;
    entry.deterministic = check->deterministic;
    entry.reference_constant = check->constant;
    if (!check->deterministic) entry.note = "the PyTorch reference gave different outputs on the same inputs";
    if (!size.verify_only) {
      auto timings = (*torch)->timings(size, impl.options.tier, 2 * impl.device.l2_bytes, true);
      if (!timings) return timings.error();
      entry.reference = timings->eager;
      entry.baseline = timings->compiled;
      entry.baseline_status = timings->compiled ? "ok" : "torch_compile_failed";
      if (!timings->compile_note.empty())
        entry.note += (entry.note.empty() ? "" : "; ") + timings->compile_note;
    }
    reply.sizes.push_back(std::move(entry));
  }
  worker::Reply wrapped;
  wrapped.body = worker::to_json(reply);
  if (auto st = apply_check_reply(task, wrapped, report); !st) return st.error();
  if (progress) progress(EvalProgress{1 + sizes.size(), 1 + sizes.size(), "done"});
  return report;
}

}  // namespace

Result<TorchReference*> Evaluator::Impl::torch_reference(TaskSpec const& task) {
  auto it = torch->find(task.dir);
  if (it == torch->end()) {
    auto started = TorchReference::start(task, options.device, compiler->options().cache_dir);
    if (!started) return started.error();
    it = torch->emplace(task.dir, std::move(*started)).first;
  }
  return it->second.get();
}

bool Evaluator::share_torch_references(Evaluator const& other) {
  if (other.impl_->options.device != impl_->options.device) return false;
  impl_->torch = other.impl_->torch;
  return true;
}

Evaluator::Evaluator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Evaluator::~Evaluator() {
  if (impl_ && impl_->worker) impl_->worker->shutdown();
}

DeviceInfo const& Evaluator::device() const noexcept {
  return impl_->device;
}

Result<std::unique_ptr<Evaluator>> Evaluator::create(EvalOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->worker_path = resolve_worker_path(options);
  worker::WorkerOptions wopts;
  wopts.worker_path = impl->worker_path;
  wopts.device = options.device;
  auto client = worker::WorkerClient::start(wopts);
  if (!client) return client.error();
  impl->worker.emplace(std::move(*client));
  if (options.compile.arch.empty()) options.compile.arch = impl->worker->device().arch();
  // Kernel-mode candidates compile in kopt-compile processes when it is there (faster than threads).
  if (options.compile.compile_server.empty()) options.compile.compile_server = find_compile_server();
  auto compiler = Compiler::create(options.compile);
  if (!compiler) return compiler.error();
  impl->compiler.emplace(std::move(*compiler));
  impl->compiles = std::make_unique<CompileQueue>(*impl->compiler);
  impl->device = impl->worker->device();
  impl->place = EvaluationPlace{host_name(), "", impl->device.index, impl->device.uuid, impl->device.name};
  // A calibration that cannot be read is ignored here (the computed peaks stay); `kopt calibrate` rewrites
  // it.
  if (auto calibration =
          load_calibration(calibration_path(impl->compiler->options().cache_dir, impl->device)))
    impl->device = apply_calibration(impl->device, *calibration);
  // Flags meant for candidates (--use_fast_math, -maxrregcount, knob macros) must never change the
  // ground truth: the reference and baseline are built without them.
  CompileOptions trusted_options = options.compile;
  trusted_options.extra_flags.clear();
  auto trusted_compiler = Compiler::create(trusted_options);
  if (!trusted_compiler) return trusted_compiler.error();
  impl->trusted_compiler.emplace(std::move(*trusted_compiler));
  impl->options = std::move(options);
  return std::unique_ptr<Evaluator>(new Evaluator(std::move(impl)));
}

Result<EvalReport> Evaluator::evaluate(TaskSpec const& task, std::vector<CandidateSource> const& candidates,
                                       ProgressCallback const& progress) {
  auto const t_start = Clock::now();
  auto& opts = impl_->options;
  EvalReport report;
  report.task = task.name;
  report.task_dir = task.dir;
  report.device = device();
  report.toolkit = impl_->compiler->toolkit_version();
  report.seed = opts.seed ? *opts.seed : draw_seed();
  report.tier = opts.tier;
  report.started_at = utc_now_iso8601();
  std::size_t const total_steps = candidates.size() + 1;
  auto step = [&](std::size_t done, std::string what) {
    if (progress) progress(EvalProgress{done, total_steps, std::move(what)});
  };

  // Candidates: compiled in the background on all cores (queued first, so that they compile while
  // the reference builds and while the GPU works through earlier ones).
  std::vector<CandidatePlan> plans;
  plans.reserve(candidates.size());
  for (auto const& c : candidates) plans.push_back(plan_candidate(task, c, opts.mode));
  for (auto const& plan : plans) {
    if (plan.request) impl_->compiles->submit(*plan.request);  // a no-op for those compiled ahead
  }

  // The task's own code (trusted): reference and baseline, built once and cached on disk.
  step(0, "building reference");
  auto const t_trusted = Clock::now();
  auto trusted = build_trusted(*impl_->trusted_compiler, task);
  if (!trusted) return trusted.error();
  TorchReference* torch = nullptr;
  if (task.reference.is_torch()) {
    step(0, "starting the PyTorch reference");
    auto started = impl_->torch_reference(task);
    if (!started) return started.error();
    torch = *started;
    // A candidate that loads PyTorch computes nothing itself: the worker refuses its runtime's folders.
    impl_->worker->deny_read(torch->runtime_dirs());
  }
  double const trusted_ms = ms_since(t_trusted);

  for (std::size_t i = 0; i < plans.size(); ++i) {
    auto const& plan = plans[i];
    CandidateReport cr;
    cr.name = plan.name;
    cr.path = plan.path;
    cr.mode = plan.mode;
    cr.ran_on = impl_->place;
    if (i == 0) cr.phases.trusted_build_ms = trusted_ms;
    step(i, "evaluating " + plan.name);
    auto const t_cand = Clock::now();
    if (!plan.request) {
      cr.status = plan.failure_status;
      cr.message = plan.failure;
      report.candidates.push_back(std::move(cr));
      continue;
    }
    auto built = impl_->compiles->take(*plan.request);
    if (!built) return built.error();
    cr.phases.compile_wait_ms = ms_since(t_cand);
    cr.phases.compile_ms = built->compile_ms;
    cr.cache_hit = built->cache_hit;
    cr.diagnostics = built->diagnostics;
    if (!built->ok) {
      cr.status = CandidateStatus::compile_error;
      cr.message = compile_failure_message(built->diagnostics);
      cr.phases.total_ms = ms_since(t_cand) + built->compile_ms;
      report.candidates.push_back(std::move(cr));
      continue;
    }
    cr.resources = built->artifact.resources;
    worker::EvaluateRequest request;
    request.selection = {task.dir.string(), opts.sizes, report.seed};
    request.tier = opts.tier;
    request.time_baseline = opts.time_baseline;
    request.timeout = deadline_scaling(opts);
    request.reference = trusted->reference;
    if (torch != nullptr) {
      step(i, plan.name + ": PyTorch reference outputs");
      auto const t_reference = Clock::now();
      auto files = torch->results_for(task, select_size_cases(task, opts.sizes), report.seed);
      if (!files) return files.error();
      request.reference_results = std::move(*files);
      cr.phases.reference_ms += ms_since(t_reference);
    }
    request.baseline = trusted->baseline;
    request.candidate = artifact_ref(task, plan, built->artifact);
    auto const idle = std::chrono::milliseconds(static_cast<long long>(opts.timeout_ceiling_ms * 2 + 120000));
    auto const t_worker = Clock::now();
    auto reply = impl_->worker->request(worker::to_json(request), idle, [&](json const& event) {
      step(i, plan.name + ": " + progress_text(event));
    });
    cr.phases.worker_ms = ms_since(t_worker);
    if (!reply) return reply.error();
    if (torch != nullptr && !reply->worker_died && !reply->client_timeout) {
      step(i, plan.name + (times_torch_compile(opts) ? ": timing PyTorch eager and torch.compile"
                                                     : ": timing PyTorch eager"));
      auto const t_reference = Clock::now();
      auto timed = with_torch_timings(reply->body, task, *torch, opts.tier, times_torch_compile(opts),
                                      2 * report.device.l2_bytes);
      if (!timed) return timed.error();
      cr.phases.reference_ms += ms_since(t_reference);
      reply->body = std::move(*timed);
    }
    auto after = apply_reply(task, report.device, *reply, cr);
    if (!after) return after.error();
    if (*after == WorkerAfterReply::discard) impl_->worker->shutdown();
    if (opts.sanitize && cr.status == CandidateStatus::ok) {
      step(i, plan.name + ": compute-sanitizer");
      run_sanitizers(impl_->worker_path, opts, task, report.seed, artifact_ref(task, plan, built->artifact),
                     cr);
    }
    cr.phases.total_ms = ms_since(t_cand);
    report.candidates.push_back(std::move(cr));
  }
  step(total_steps, "done");
  report.wall_ms = ms_since(t_start);
  return report;
}

void Evaluator::compile_ahead(TaskSpec const& task, std::vector<CandidateSource> const& candidates) {
  for (auto const& candidate : candidates) {
    CandidatePlan const plan = plan_candidate(task, candidate, impl_->options.mode);
    if (plan.request) impl_->compiles->submit(*plan.request);
  }
}

void Evaluator::prepare(TaskSpec const& task) {
  if (impl_->preparing.joinable()) impl_->preparing.join();
  Compiler const* compiler = &*impl_->trusted_compiler;
  impl_->preparing = std::thread([compiler, task] {
    try {
      // Only the cache matters here: a failure shows again, with its message, when the task is evaluated.
      (void)build_trusted(*compiler, task);
    } catch (...) {  // NOLINT(bugprone-empty-catch): best effort, as above
    }
  });
}

Status Evaluator::build_trusted_code(TaskSpec const& task) {
  if (impl_->preparing.joinable()) impl_->preparing.join();
  auto trusted = build_trusted(*impl_->trusted_compiler, task);
  if (!trusted) return trusted.error();
  if (!task.reference.is_torch()) return Ok{};
  // A PyTorch task's reference is a process: started now, with the outputs of this evaluator's trials
  // (when its seed is fixed, as the screen tier's is) and eager (and, at the confirm tier, torch.compile)
  // timed on every timed size case, so that a search's clock counts none of it (docs/pytorch.md, "Time
  // accounting").
  auto const& opts = impl_->options;
  auto torch = impl_->torch_reference(task);
  if (!torch) return torch.error();
  auto const sizes = select_size_cases(task, opts.sizes);
  if (opts.seed) {
    if (auto files = (*torch)->results_for(task, sizes, *opts.seed); !files) return files.error();
  }
  for (SizeCase const* size : sizes) {
    if (size->verify_only) continue;
    auto timed = (*torch)->timings(*size, opts.tier, 2 * impl_->device.l2_bytes, times_torch_compile(opts));
    if (!timed) return timed.error();
  }
  return Ok{};
}

Result<TaskCheckReport> Evaluator::check_task(TaskSpec const& task, ProgressCallback const& progress) {
  auto& opts = impl_->options;
  TaskCheckReport report;
  report.task = task.name;
  report.device = device();
  report.seed = opts.seed ? *opts.seed : draw_seed();
  if (progress) progress(EvalProgress{0, 2, "building reference"});
  if (task.reference.is_torch()) return check_torch_task(*impl_, task, std::move(report), progress);
  auto trusted = build_trusted(*impl_->trusted_compiler, task);
  if (!trusted) return trusted.error();
  if (progress) progress(EvalProgress{1, 2, "running reference"});
  worker::CheckTaskRequest request;
  request.selection = {task.dir.string(), opts.sizes, report.seed};
  request.tier = opts.tier;
  request.timeout = deadline_scaling(opts);
  request.reference = *trusted->reference;
  request.baseline = trusted->baseline;
  auto reply =
      impl_->worker->request(worker::to_json(request), std::chrono::minutes(30), [&](json const& event) {
        if (progress) progress(EvalProgress{1, 2, progress_text(event)});
      });
  if (!reply) return reply.error();
  if (auto st = apply_check_reply(task, *reply, report); !st) return st.error();
  if (progress) progress(EvalProgress{2, 2, "done"});
  return report;
}

}  // namespace kopt
