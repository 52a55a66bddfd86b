// `kopt optimize --proposer llm|mixed`: a Monte Carlo tree search over kernel SOURCES above the
// knob search. The root is the `--from` kernel; a child is the source an action makes from its parent: an
// LLM edit (planner -> coder -> SEARCH/REPLACE or whole file, failures fed back for bounded repair rounds)
// or, with `mixed`, a strategy of the library instantiated for the task. Each node is evaluated by tuning
// its knobs briefly (a per-node budget; a source without knobs is evaluated once), and its value is the
// calibrated reward (search.hpp) of its best evaluation. Selection is UCT, expansion progressive widening
// (allowed_children), failures are children with their status penalty. Everything goes to one run in the
// store: candidates with parent and action, every LLM call with its candidate and rationale. docs/llm.md,
// "kopt optimize --proposer llm|mixed".
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/llm.hpp"
#include "kopt/llm_roles.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/result.hpp"
#include "kopt/search.hpp"
#include "kopt/task.hpp"

namespace kopt {

// What makes the children of a source node: LLM edits only, or LLM edits, library strategies and deeper
// knob tuning of a node.
enum class SourceProposer { llm, mixed };
std::string_view to_string(SourceProposer proposer) noexcept;
// "llm", "mixed"; nullopt otherwise ("builtin" is `kopt optimize` without this search).
std::optional<SourceProposer> source_proposer_from_string(std::string_view text) noexcept;

struct SourceSearchOptions {
  SourceProposer proposer = SourceProposer::llm;
  std::size_t max_evaluations = 60;  // unique evaluations over all nodes (--budget)
  std::size_t node_budget = 8;       // knob evaluations that tune one node (and one deepening)
  int repairs = 2;                   // coder rounds after the first, for one LLM edit
  bool judge = false;                // a judge model reviews each edited kernel before it is evaluated
  double max_wall_seconds = 0.0;     // 0: no limit
  std::uint64_t seed = 1;
  std::filesystem::path source_path;  // recorded with the run
  std::vector<std::string> flags;     // extra compiler flags for every candidate
  bool confirm = true;                // the incumbent on the confirm tier at the end
  bool search_memory = true;          // the task family's action stats: shown to the planner, updated
  MctsConfig mcts;                    // UCT constant, widening, dead-end window (search.hpp)
  PromptOptions prompt = default_prompt_options();
  std::size_t error_excerpt_bytes = 3000;  // compiler log / verification message sent back
  std::size_t findings_chars = 2000;       // describe_for_prompt's budget
  int arch_sm = 0;                         // for the strategies' min_arch; 0: do not check
  LlmLimits limits;                        // recorded; the backend's budget enforces them
  // What the llm_calls rows name (GenerateLlm's kind, model and secret when it built the backend).
  std::string backend_kind;
  std::string model;
  std::string secret;

  static PromptOptions default_prompt_options() {
    PromptOptions options;
    options.edit_format = EditFormat::search_replace;
    return options;
  }
};

// One expansion of the tree: an LLM edit, a strategy, or the deepening of a node's knob tuning.
struct SourceStep {
  std::size_t node = 0;               // the child made (the node itself for "deepen")
  std::optional<std::size_t> parent;  // the node expanded
  std::string action;                 // llm_edit, strategy:<name>, deepen
  // ok, a CandidateStatus, a reply failure (edit_not_found, edit_ambiguous, no_code, no_choice, ...),
  // judge_rejected, llm_error (a call failed) or budget_exhausted (a call was refused: the run stops).
  std::string status;
  std::string message;                      // the first failure, trimmed
  std::string choice;                       // the planner's CHOICE (llm_edit)
  std::string rationale;                    // the planner's PLAN paragraph (llm_edit)
  int rounds = 0;                           // coder replies asked for (llm_edit)
  std::vector<std::string> round_statuses;  // each coder round's status, in order
  std::optional<double> speedup;            // the node's best screen speedup after the step
  std::size_t evaluations = 0;              // unique evaluations the step added
  int llm_calls = 0;
  double cost_usd = 0.0;
};

struct SourceNode {
  std::optional<std::size_t> parent;
  std::string action;  // "" for the root
  int depth = 0;
  std::string source;
  bool tunable = false;                  // has // kopt:knob annotations
  std::optional<CandidateId> candidate;  // its best evaluation's candidate (else its first)
  CandidateStatus status = CandidateStatus::ok;
  std::optional<double> best_speedup;  // best screen speedup among its evaluations
  std::string best_config;
  std::size_t evaluations = 0;  // points of its knob tuning (all tunings)
  int visits = 0;
  double reward_sum = 0.0;
  double reward_max = 0.0;
  int expansions = 0;  // actions taken from it (children and deepenings)
  bool dead_end = false;
  std::vector<std::size_t> children;
};

struct SourceSearchResult {
  RunId run;
  SourceProposer proposer = SourceProposer::llm;
  std::vector<SourceNode> nodes;  // nodes[0] is the root
  std::vector<SourceStep> steps;  // in order
  std::size_t evaluations = 0;    // unique points of the run (answers from the store included)
  std::size_t evaluated = 0;      // by the evaluator (search and confirm)
  std::size_t from_store = 0;
  std::string stop_reason;  // evaluations, wall_time, exhausted, stalled, or the LLM budget's sentence
  std::optional<CandidateId> incumbent;  // guardrail incumbent over every evaluation
  std::optional<std::size_t> incumbent_node;
  std::string incumbent_config;
  std::string incumbent_source;  // materialised
  std::optional<double> incumbent_screen_speedup;
  std::optional<CandidateReport> confirmed;
  int llm_calls = 0;
  double cost_usd = 0.0;
  bool cost_complete = true;  // false when some call's cost was unknown
  double elapsed_seconds = 0.0;
};

using SourceSearchProgressCallback = std::function<void(SourceStep const& step)>;

// Runs the search from `source` on `task` (docs/llm.md). `library` may be null (then the planner's options
// are a free change only, and `mixed` has no strategy actions). A failed call, an edit that does not apply
// or a failing kernel is a step with a status, never an Error; when the LLM budget refuses a call the run
// stops cleanly, keeps the best verified kernel and confirms it. Error when the options, the prompts or the
// store cannot be used, or nothing could be evaluated.
Result<SourceSearchResult> source_search(TaskSpec const& task, std::string const& source,
                                         StrategyLibrary const* library, LlmBackend& backend,
                                         CandidateEvaluator& evaluator, Store& store,
                                         SourceSearchOptions const& options,
                                         SourceSearchProgressCallback const& progress = {});

// The kopt.optimize/1 document of such a run (with "proposer", "llm" and "steps"), and its text.
nlohmann::json source_search_to_json(SourceSearchResult const& result);
std::string render_source_search(SourceSearchResult const& result);

}  // namespace kopt
