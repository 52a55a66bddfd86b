// generate_kernels: one generator request per strategy, every kernel evaluated, failures repaired for a
// bounded number of rounds, the best verified kernel confirmed; every call and evaluation recorded.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "generate/generate_log.hpp"
#include "kopt/compile.hpp"
#include "kopt/elapsed.hpp"
#include "kopt/generate.hpp"

namespace kopt {
namespace {

using Clock = std::chrono::steady_clock;
using generate_detail::GenerateLog;

constexpr std::string_view kGeneric = "generic";
constexpr std::string_view kRepairPlan =
    "Repair the kernel: make it compile and pass verification on every size case, keeping its strategy. "
    "Change what the errors below require and keep the rest.";

// The kernel of a reply: a generator writes whole files; a coder may also edit `current` with SEARCH/REPLACE.
ReplyResult<std::string> kernel_of(std::string const& reply, std::string const& current) {
  if (current.empty()) return extract_kernel(reply);
  auto edited = parse_kernel_reply(reply, current);
  if (!edited) return edited.failure();
  return edited->source;
}

// One strategy's line of kernels: the draft, then its repairs.
struct Lineage {
  std::string strategy;
  LibraryStrategy const* library = nullptr;  // null for the generic request
  std::string source;                        // the latest kernel ("" when the model wrote none yet)
  std::optional<CandidateId> candidate;      // the latest kernel's candidate
  std::string errors;                        // what the next repair is told
  bool open = true;                          // false: verified, or no repair can follow
};

// A kernel extracted from a reply, waiting for the batch evaluation.
struct Pending {
  std::size_t lineage = 0;
  std::size_t attempt = 0;
};

class Session {
 public:
  Session(TaskSpec const& task, LlmBackend& backend, CandidateEvaluator& evaluator,
          GenerateOptions const& options, GenerateProgressCallback const& progress, GenerateLog& log,
          PromptContext base)
      : task_(task),
        backend_(backend),
        evaluator_(evaluator),
        options_(options),
        progress_(progress),
        log_(log),
        base_(std::move(base)) {}

  Result<GenerateResult> run(std::vector<Lineage> lineages) {
    auto const started = Clock::now();
    lineages_ = std::move(lineages);
    for (auto const& lineage : lineages_) result_.strategies.push_back(lineage.strategy);
    result_.run = log_.run();
    for (int round = 0; round <= options_.repairs && !stopped_; ++round) {
      std::vector<Pending> pending;
      for (std::size_t i = 0; i < lineages_.size() && !stopped_; ++i) {
        if (!lineages_[i].open) continue;
        auto asked = ask(i, round, pending);
        if (!asked) return asked.error();
      }
      if (auto evaluated = evaluate(pending); !evaluated) return evaluated.error();
    }
    if (auto confirmed = confirm(); !confirmed) return confirmed.error();
    result_.stop_reason = stopped_ ? stop_reason_ : "done";
    result_.elapsed_seconds = seconds_since(started);
    return std::move(result_);
  }

 private:
  PromptContext context_for(Lineage const& lineage) const {
    PromptContext context = base_;
    if (lineage.library != nullptr) {
      context.strategy_name = lineage.library->name;
      context.strategy_description = lineage.library->description;
      context.strategy_applies_when = lineage.library->applies_when;
    } else {
      context.strategy_name = std::string(kGeneric);
      context.strategy_description =
          "No strategy from kopt's library fits this task: write the fastest correct kernel you can for "
          "these sizes on this GPU, following the request above.";
    }
    context.errors = lineage.errors;
    return context;
  }

  // One call for the lineage: a generator draft (round 0, or a repair of a reply without code) or a coder
  // repair of its latest kernel. An extracted kernel joins `pending`.
  Status ask(std::size_t index, int round, std::vector<Pending>& pending) {
    Lineage& lineage = lineages_[index];
    bool const coder = round > 0 && !lineage.source.empty();
    PromptContext context = context_for(lineage);
    if (coder) {
      context.kernel_source = lineage.source;
      context.plan = std::string(kRepairPlan);
    }
    GenerateAttempt attempt;
    attempt.strategy = lineage.strategy;
    attempt.round = round;
    attempt.role = coder ? "coder" : "generator";
    auto prompt = coder ? build_coder_prompt(context, options_.prompt)
                        : build_generator_prompt(context, options_.prompt);
    if (!prompt) {
      lineage.open = false;
      return finish_attempt(std::move(attempt), "prompt_error", prompt.error().message);
    }
    std::string const purpose =
        round == 0 ? lineage.strategy + ", draft" : fmt::format("{}, repair {}", lineage.strategy, round);
    auto reply = call(prompt->request, attempt, purpose);
    if (!reply) return reply.error();
    if (!*reply) {
      lineage.open = false;
      return Ok{};  // the attempt is finished: the call failed or was refused
    }
    auto kernel = kernel_of(**reply, coder ? lineage.source : std::string());
    if (!kernel) {
      // Told to the model as it is by the next round: the coder again when there is a kernel to repair,
      // else the generator.
      lineage.errors = kernel.failure().message;
      return finish_attempt(std::move(attempt), std::string(to_string(kernel.failure().kind)),
                            kernel.failure().message);
    }
    attempt.source = *kernel;
    pending.push_back(Pending{index, result_.attempts.size()});
    result_.attempts.push_back(std::move(attempt));
    return Ok{};
  }

  // Makes the call and records it. The reply's text; nullopt when the call failed (an llm_error attempt)
  // or the budget refused it (budget_exhausted, and the run stops); an Error only when the store fails.
  Result<std::optional<std::string>> call(LlmRequest const& request, GenerateAttempt& attempt,
                                          std::string const& purpose) {
    auto const started = Clock::now();
    auto reply = backend_.complete(request);
    if (!reply && is_llm_budget_error(reply.error())) {
      stopped_ = true;
      stop_reason_ = redact_secret(reply.error().message, options_.secret);
      auto done = finish_attempt(std::move(attempt), "budget_exhausted", stop_reason_);
      if (!done) return done.error();
      return std::optional<std::string>();
    }
    ++result_.llm_calls;
    LlmCallRecord const record = llm_call_record(
        request, reply, {attempt.role, purpose, options_.model, options_.backend_kind, options_.secret},
        seconds_since(started) * 1000.0);
    if (!reply) {
      auto id = log_.record_call(record);
      if (!id) return id.error();
      attempt.call = *id;
      attempt.latency_ms = record.latency_ms;
      auto done = finish_attempt(std::move(attempt), "llm_error", record.error);
      if (!done) return done.error();
      return std::optional<std::string>();
    }
    auto id = log_.record_call(record);
    if (!id) return id.error();
    attempt.call = *id;
    attempt.usage = reply->usage;
    attempt.cost_usd = reply->cost_usd;
    attempt.latency_ms = reply->latency_ms;
    attempt.from_cache = reply->from_cache;
    if (reply->cost_usd) {
      result_.cost_usd += *reply->cost_usd;
    } else {
      result_.cost_complete = false;
    }
    return std::optional<std::string>(std::move(reply->text));
  }

  Status finish_attempt(GenerateAttempt attempt, std::string status, std::string const& message) {
    attempt.status = std::move(status);
    attempt.message = head_lines(message, options_.error_excerpt_bytes);
    result_.attempts.push_back(std::move(attempt));
    if (progress_) progress_(result_.attempts.back());
    return Ok{};
  }

  CandidateInput input_of(GenerateAttempt const& attempt) const {
    CandidateInput input;
    input.name =
        attempt.round == 0 ? attempt.strategy : fmt::format("{}#repair{}", attempt.strategy, attempt.round);
    input.source = attempt.source;
    input.mode = detect_mode(attempt.source, task_.signature.function).value_or(options_.mode);
    return input;
  }

  static std::string action_of(GenerateAttempt const& attempt) {
    return (attempt.round == 0 ? "generate:" : "repair:") + attempt.strategy;
  }

  Status evaluate(std::vector<Pending> const& pending) {
    if (pending.empty()) return Ok{};
    std::vector<CandidateInput> inputs;
    inputs.reserve(pending.size());
    for (Pending const& p : pending) inputs.push_back(input_of(result_.attempts[p.attempt]));
    auto reports = evaluator_.evaluate(task_, inputs, TimingTier::screen);
    if (!reports) return reports.error();
    if (reports->size() != inputs.size()) {
      return make_error(
          ErrorCode::internal_error,
          fmt::format("candidate evaluator: expected {} reports, got {}", inputs.size(), reports->size()));
    }
    for (std::size_t i = 0; i < pending.size(); ++i) {
      Lineage& lineage = lineages_[pending[i].lineage];
      GenerateAttempt& attempt = result_.attempts[pending[i].attempt];
      CandidateReport const& report = (*reports)[i];
      auto id = log_.record_candidate(task_, inputs[i], lineage.candidate, action_of(attempt), report,
                                      TimingTier::screen);
      if (!id) return id.error();
      attempt.candidate = *id;
      if (attempt.call) {
        if (auto linked = log_.link(*attempt.call, *id); !linked) return linked;
      }
      attempt.status = std::string(to_string(report.status));
      attempt.message = head_lines(report.message, options_.error_excerpt_bytes);
      if (report.status == CandidateStatus::ok) {
        attempt.speedup = report.geomean_speedup;
        lineage.open = false;
      } else {
        lineage.errors = error_excerpt(report, options_.error_excerpt_bytes);
      }
      lineage.source = attempt.source;
      lineage.candidate = *id;
      if (progress_) progress_(attempt);
    }
    return Ok{};
  }

  // The verified kernels, fastest first, on the confirm tier until one passes (without confirm: the fastest).
  Status confirm() {
    std::vector<std::size_t> verified;
    for (std::size_t i = 0; i < result_.attempts.size(); ++i) {
      if (result_.attempts[i].status == "ok") verified.push_back(i);
    }
    std::stable_sort(verified.begin(), verified.end(), [&](std::size_t a, std::size_t b) {
      return result_.attempts[a].speedup.value_or(0.0) > result_.attempts[b].speedup.value_or(0.0);
    });
    for (std::size_t const index : verified) {
      GenerateAttempt const& attempt = result_.attempts[index];
      if (!options_.confirm) {
        choose(index);
        return Ok{};
      }
      CandidateInput const input = input_of(attempt);
      auto report = evaluator_.evaluate_one(task_, input, TimingTier::confirm);
      if (!report) return report.error();
      auto id =
          log_.record_candidate(task_, input, std::nullopt, action_of(attempt), *report, TimingTier::confirm);
      if (!id) return id.error();
      result_.confirmed = *report;
      if (report->status == CandidateStatus::ok) {
        choose(index);
        return Ok{};
      }
    }
    return Ok{};
  }

  void choose(std::size_t index) {
    result_.best = index;
    result_.best_source = result_.attempts[index].source;
    result_.best_screen_speedup = result_.attempts[index].speedup;
  }

  TaskSpec const& task_;
  LlmBackend& backend_;
  CandidateEvaluator& evaluator_;
  GenerateOptions const& options_;
  GenerateProgressCallback const& progress_;
  GenerateLog& log_;
  PromptContext base_;
  std::vector<Lineage> lineages_;
  GenerateResult result_;
  bool stopped_ = false;
  std::string stop_reason_;
};

Status check_options(GenerateOptions const& options) {
  auto invalid = [](std::string const& message) { return make_error(ErrorCode::invalid_argument, message); };
  if (options.intent.find_first_not_of(" \t\r\n") == std::string::npos)
    return invalid("generate: intent: expected a plain-language description of the kernel wanted (--intent)");
  if (options.strategies < 1) return invalid("generate: strategies: expected at least 1 (--strategies)");
  if (options.repairs < 0) return invalid("generate: repairs: expected 0 or more (--repairs)");
  return Ok{};
}

// Up to `count` strategies for the task, most relevant first; none: one generic request.
std::vector<Lineage> lineages_for(TaskSpec const& task, StrategyLibrary const* library,
                                  GenerateOptions const& options) {
  std::vector<Lineage> lineages;
  if (library != nullptr && !task.family.empty()) {
    for (LibraryStrategy const* strategy :
         choose_strategies(*library, task, options.arch_sm, options.signals)) {
      if (lineages.size() >= options.strategies) break;
      lineages.push_back(Lineage{strategy->name, strategy, {}, {}, {}, true});
    }
  }
  if (lineages.empty()) lineages.push_back(Lineage{std::string(kGeneric), nullptr, {}, {}, {}, true});
  return lineages;
}

}  // namespace

Result<GenerateResult> generate_kernels(TaskSpec const& task, StrategyLibrary const* library,
                                        LlmBackend& backend, CandidateEvaluator& evaluator, Store& store,
                                        GenerateOptions const& options,
                                        GenerateProgressCallback const& progress) {
  if (auto checked = check_options(options); !checked) return checked.error();
  auto context = prompt_context_for_task(task, options.intent, options.mode);
  if (!context) return context.error();
  // The templates are checked before anything is recorded or paid for.
  auto prompts = find_prompts_dir(options.prompt.prompts_dir);
  if (!prompts) return prompts.error();
  for (PromptRole const role : {PromptRole::generator, PromptRole::coder}) {
    if (auto loaded = load_prompt_template(*prompts, role); !loaded) return loaded.error();
  }
  GenerateOptions resolved = options;
  resolved.prompt.prompts_dir = *prompts;

  auto log = GenerateLog::create(store, task, resolved, evaluator.target());
  if (!log) return log.error();
  Session session(task, backend, evaluator, resolved, progress, *log, std::move(*context));
  auto result = session.run(lineages_for(task, library, resolved));
  if (auto finished = log->finish(result.ok()); !finished && result) return finished.error();
  return result;
}

}  // namespace kopt
