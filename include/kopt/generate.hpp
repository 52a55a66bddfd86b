// `kopt generate`: a language model writes complete kernels for a task from its spec, its
// reference and a plain-language intent, one per strategy of the strategy library (a mixture of ideas, not
// N samples of one); every kernel is verified and timed by a CandidateEvaluator, failures go back to the
// model for a bounded number of repair rounds, and the best verified kernel is the result (the root for
// later optimization). Every LLM call and every evaluation is recorded in the store. docs/llm.md,
// "kopt generate".
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/eval.hpp"
#include "kopt/llm.hpp"
#include "kopt/llm_roles.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/result.hpp"
#include "kopt/store.hpp"
#include "kopt/task.hpp"

namespace kopt {

// The task part of a prompt: name, description followed by the user's intent, family, signature, main
// element type, every size case, the tolerance of each output type, kernel or launcher form, and the
// reference's path and source (read from disk: the ground truth). Error when the reference cannot be read.
Result<PromptContext> prompt_context_for_task(TaskSpec const& task, std::string const& intent,
                                              CandidateMode mode = CandidateMode::launcher);

// The backend `kopt generate` talks to: the configured backend with the budget inside the response cache
// (cache hits cost nothing and are not counted), and the API key kept apart for redaction.
struct GenerateLlm {
  std::unique_ptr<LlmBackend> backend;
  std::shared_ptr<LlmBudget> budget;
  std::string kind;    // openai, anthropic, command, replay
  std::string model;   // the configured model ("" : the server's default)
  std::string secret;  // the API key, only to redact it from what is stored and printed; never shown
};
Result<GenerateLlm> make_generate_llm(LlmConfig config, LlmLimits limits, LlmHooks hooks = {});

struct GenerateOptions {
  std::string intent;                            // what the user wants, in plain language (required)
  std::size_t strategies = 4;                    // at most this many generator requests, one per strategy
  int repairs = 2;                               // repair rounds for each failed kernel
  CandidateMode mode = CandidateMode::launcher;  // the form asked for (kernel needs the task's [launch])
  int arch_sm = 0;                               // for the strategies' min_arch; 0: do not check
  std::vector<std::string> signals;              // profiler signals that order the strategies
  PromptOptions prompt;                          // templates folder, prompt budget, reply budget
  bool confirm = true;                           // re-time the best on the confirm tier
  std::size_t error_excerpt_bytes = 3000;        // the compiler log / verification message sent back
  LlmLimits limits;  // recorded with the run; the backend's budget enforces them (make_generate_llm)
  // What the llm_calls rows name (GenerateLlm's kind, model and secret when it built the backend).
  std::string backend_kind;
  std::string model;
  std::string secret;
};

// One kernel the model wrote (or failed to write): a generator draft (round 0) or a repair.
struct GenerateAttempt {
  std::string strategy;  // the library strategy, or "generic" for a task without one
  int round = 0;         // 0: the generator's draft; 1..repairs: repair rounds
  std::string role;      // generator or coder
  // ok, a CandidateStatus (compile_error, wrong_output, timeout, ...), a reply failure (no_code,
  // unclosed_fence), llm_error (the call failed) or budget_exhausted (the call was not made).
  std::string status;
  std::string message;            // first failure or the error, trimmed
  std::optional<double> speedup;  // screen-tier geomean over the reference (ok only)
  std::optional<CandidateId> candidate;
  std::optional<LlmCallId> call;
  std::string source;  // the extracted kernel ("" when the reply held none)
  LlmUsage usage;
  std::optional<double> cost_usd;
  double latency_ms = 0.0;
  bool from_cache = false;
};

struct GenerateResult {
  RunId run;
  std::vector<std::string> strategies;    // asked for, in order
  std::vector<GenerateAttempt> attempts;  // in the order the calls were made
  std::optional<std::size_t> best;        // index into attempts of the best verified kernel
  std::string best_source;
  std::optional<double> best_screen_speedup;
  std::optional<CandidateReport> confirmed;  // the best on the confirm tier (when confirm is on)
  std::string stop_reason;                   // "done", or the budget's sentence when it stopped the run
  int llm_calls = 0;                         // calls made (cache hits included)
  double cost_usd = 0.0;                     // known costs summed
  bool cost_complete = true;                 // false when some call's cost was unknown
  double elapsed_seconds = 0.0;
};

// Progress after each attempt is evaluated (or fails before evaluation).
using GenerateProgressCallback = std::function<void(GenerateAttempt const& attempt)>;

// Generates, repairs, evaluates and records (docs/llm.md, "kopt generate"). `library` may be null (then
// one generic request). A failed call, a reply without code or a failing kernel is an attempt with a
// status, never an Error; when the budget refuses a call the run stops cleanly and keeps what verified.
// Error when the task, the prompts or the store cannot be used, or nothing could be evaluated.
Result<GenerateResult> generate_kernels(TaskSpec const& task, StrategyLibrary const* library,
                                        LlmBackend& backend, CandidateEvaluator& evaluator, Store& store,
                                        GenerateOptions const& options,
                                        GenerateProgressCallback const& progress = {});

// ---- shared by the LLM proposers (generate, source_search) -----------------------------------------

// Who made a call and for what, for its llm_calls row; `secret` is only redacted from what is stored.
struct CallLabels {
  std::string role;
  std::string purpose;
  std::string model;    // the configured model (the reply's, when it names one, wins)
  std::string backend;  // the configured kind (else the reply's)
  std::string secret;
};
// The llm_calls row of a call that was made: its usage, cost, latency and rationale (reply_prose), or why it
// failed (`failed_latency_ms` is its latency then; a reply carries its own). Secrets are redacted.
LlmCallRecord llm_call_record(LlmRequest const& request, Result<LlmReply> const& reply,
                              CallLabels const& labels, double failed_latency_ms);

// The head of `text` in whole lines within `max_bytes` (a line longer than that is cut), with a note of how
// many lines were left out. A compiler's first errors matter most, so the head is what stays.
std::string head_lines(std::string_view text, std::size_t max_bytes);

// The failure of an evaluated kernel for the model (what a repair prompt says): its status, the report's
// message, the compiler's log and each failing size case with its message and errors, within `max_bytes`.
std::string error_excerpt(CandidateReport const& report, std::size_t max_bytes);

}  // namespace kopt
