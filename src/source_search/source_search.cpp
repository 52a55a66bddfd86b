// source_search: UCT over source nodes with progressive widening; actions are LLM edits, library strategies
// (mixed) and deeper knob tuning of a node (mixed). Rewards, widening and the guardrail are search.hpp's.
#include "kopt/source_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include "kopt/compile.hpp"
#include "kopt/generate.hpp"
#include "source_search/llm_edit.hpp"
#include "source_search/planner_context.hpp"
#include "source_search/run_evaluations.hpp"

namespace kopt {

std::string_view to_string(SourceProposer proposer) noexcept {
  return proposer == SourceProposer::mixed ? "mixed" : "llm";
}

std::optional<SourceProposer> source_proposer_from_string(std::string_view text) noexcept {
  if (text == "llm") return SourceProposer::llm;
  if (text == "mixed") return SourceProposer::mixed;
  return std::nullopt;
}

namespace {

using source_search_detail::EditRequest;
using source_search_detail::LlmEditor;
using source_search_detail::NodeTuning;
using source_search_detail::RunEvaluations;

// Steps in a row that add no evaluation (calls that fail, edits that never apply) before the run gives up.
constexpr int kStallSteps = 4;

Status check_options(SourceSearchOptions const& options) {
  auto invalid = [](std::string const& message) { return make_error(ErrorCode::invalid_argument, message); };
  if (options.max_evaluations == 0) return invalid("source search: budget: expected at least 1 evaluation");
  if (options.node_budget == 0) return invalid("source search: node_budget: expected at least 1 evaluation");
  if (options.repairs < 0) return invalid("source search: repairs: expected 0 or more");
  if (options.max_wall_seconds < 0.0)
    return invalid("source search: time: expected seconds >= 0 (0: no limit)");
  return Ok{};
}

OptimizeOptions run_options(SourceSearchOptions const& options) {
  OptimizeOptions run;
  run.strategy = std::string(to_string(options.proposer));
  run.max_evaluations = options.max_evaluations;
  run.max_wall_seconds = options.max_wall_seconds;
  run.seed = options.seed;
  run.source_path = options.source_path;
  run.flags = options.flags;
  run.confirm = options.confirm;
  run.search_memory = options.search_memory;
  run.mcts = options.mcts;
  return run;
}

class Search {
 public:
  Search(TaskSpec const& task, StrategyLibrary const* library, SourceSearchOptions const& options,
         RunLog& log, RunEvaluations& evaluations, LlmEditor& editor, PromptContext base,
         SourceSearchProgressCallback const& progress)
      : task_(task),
        library_(library),
        options_(options),
        log_(log),
        evaluations_(evaluations),
        editor_(editor),
        base_(std::move(base)),
        progress_(progress) {
    if (library_ != nullptr && !task_.family.empty()) {
      for (LibraryStrategy const* strategy : choose_strategies(*library_, task_, options_.arch_sm)) {
        strategies_.push_back(strategy);
        planner_options_.push_back(
            PromptOption{strategy->name, strategy->description, strategy->applies_when});
      }
    }
    planner_options_.push_back(PromptOption{
        std::string(source_search_detail::kOwnChange),
        "A change of your own to the current kernel that addresses its measured bottleneck (say exactly what "
        "in the plan).",
        ""});
  }

  Result<SourceSearchResult> run(std::string const& root_source) {
    auto const started = std::chrono::steady_clock::now();
    result_.proposer = options_.proposer;
    result_.run = log_.id();
    auto root = evaluations_.tune(root_source, std::nullopt, "", options_.node_budget, 0);
    if (!root) return root.error();
    SourceNode node;
    node.source = root_source;
    add_node(std::move(node), std::move(*root), "root");
    backup({}, 0, tunings_[0].reward);

    int stalled = 0;
    std::size_t const max_iterations = 20 * options_.max_evaluations + 100;
    for (std::size_t iteration = 0; iteration < max_iterations; ++iteration) {
      if (evaluations_.exhausted()) {
        stop_reason_ = evaluations_.exhausted_reason();
        break;
      }
      if (exhausted(0)) {
        stop_reason_ = "exhausted";
        break;
      }
      std::vector<std::size_t> const path = select();
      std::size_t const leaf = path.back();
      double const leaf_reward = tunings_[leaf].reward;
      auto step = expand(leaf);
      if (!step) return step.error();
      if (!*step) {  // nothing to do from here now: a visit without a child lets the node widen
        backup(path, leaf, value(leaf));
        continue;
      }
      SourceStep& done = **step;
      // A step that made a child or deepened the node is backed up; a call that failed made nothing.
      if (done.node != leaf || done.action == "deepen") {
        double const reward = tunings_[done.node].reward;
        backup(path, done.node, reward);
        memory_.emplace_back(done.action, reward - leaf_reward);
      }
      stalled = done.evaluations == 0 ? stalled + 1 : 0;
      result_.steps.push_back(done);
      if (progress_) progress_(result_.steps.back());
      if (stopped_) break;
      if (stalled >= kStallSteps) {
        stop_reason_ = "stalled";
        break;
      }
    }
    if (stop_reason_.empty()) stop_reason_ = "exhausted";
    if (auto finished = finish(); !finished) return finished.error();
    result_.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return std::move(result_);
  }

 private:
  SourceNode& node(std::size_t index) { return result_.nodes[index]; }

  std::size_t add_node(SourceNode node, NodeTuning tuning, std::string label) {
    node.tunable = tuning.tunable;
    node.status = tuning.evaluated ? tuning.status : CandidateStatus::compile_error;
    node.candidate = tuning.best_candidate;
    node.best_speedup = tuning.best_speedup;
    node.best_config = tuning.best_config;
    node.evaluations = tuning.points;
    if (!tuning.evaluated) tuning.reward = failure_penalty(CandidateStatus::compile_error);
    if (node.status != CandidateStatus::ok) node.dead_end = true;  // a failed child is never expanded
    result_.nodes.push_back(std::move(node));
    tunings_.push_back(std::move(tuning));
    budgets_.push_back(options_.node_budget);
    labels_.push_back(std::move(label));
    failures_in_row_.push_back(0);
    return result_.nodes.size() - 1;
  }

  // The rewards backed up through a node (its own before its first visit).
  double value(std::size_t index) const {
    SourceNode const& n = result_.nodes[index];
    if (n.visits == 0) return tunings_[index].reward;
    return backed_up_value(options_.mcts, n.reward_sum, n.visits, n.reward_max);
  }

  void visit(std::size_t index, double reward) {
    SourceNode& n = node(index);
    n.reward_max = n.visits == 0 ? reward : std::max(n.reward_max, reward);
    n.reward_sum += reward;
    ++n.visits;
  }

  void backup(std::vector<std::size_t> const& path, std::size_t leaf, double reward) {
    for (std::size_t const index : path) {
      if (index != leaf) visit(index, reward);
    }
    visit(leaf, reward);
  }

  // No more children from a node: a dead end; the root only when its last expansions all failed (a root
  // that fails itself stays open: an edit may repair it).
  bool closed(std::size_t index) const {
    return index == 0 ? failures_in_row_[0] >= options_.mcts.dead_end_window : result_.nodes[index].dead_end;
  }

  bool can_expand(std::size_t index) const {
    SourceNode const& n = result_.nodes[index];
    if (closed(index)) return false;
    return static_cast<int>(n.children.size()) <
           allowed_children(options_.mcts, std::max(n.visits, 1), n.depth);
  }

  bool deepenable(std::size_t index) const {
    SourceNode const& n = result_.nodes[index];
    return options_.proposer == SourceProposer::mixed && n.tunable && n.status == CandidateStatus::ok &&
           !n.dead_end && tunings_[index].points >= budgets_[index];  // the last tuning used its budget
  }

  // A node with nothing left: it cannot expand, cannot be deepened, and every child is exhausted.
  bool exhausted(std::size_t index) const {
    SourceNode const& n = result_.nodes[index];
    if (!closed(index) || deepenable(index)) return false;
    return std::all_of(n.children.begin(), n.children.end(), [&](std::size_t c) { return exhausted(c); });
  }

  // From the root down by UCT while a node may not widen; stops at a node that may.
  std::vector<std::size_t> select() const {
    std::vector<std::size_t> path = {0};
    std::size_t current = 0;
    while (true) {
      if (can_expand(current)) return path;
      SourceNode const& n = result_.nodes[current];
      std::optional<std::size_t> best;
      double best_score = 0.0;
      for (std::size_t const child : n.children) {
        SourceNode const& c = result_.nodes[child];
        if (c.status != CandidateStatus::ok || exhausted(child)) continue;
        double const score = uct_score(options_.mcts, value(child), n.visits, c.visits);
        if (!best || score > best_score) {
          best = child;
          best_score = score;
        }
      }
      if (!best) return path;
      current = *best;
      path.push_back(current);
    }
  }

  // The next action from `index`: mixed cycles strategy, LLM edit, deepen (each falling back to an LLM edit).
  std::string next_action(std::size_t index) const {
    if (options_.proposer == SourceProposer::llm) return "llm_edit";
    int const turn = result_.nodes[index].expansions % 3;
    if (turn == 0 && tried_strategies_.size() < strategies_.size()) return "strategy";
    if (turn == 2 && deepenable(index)) return "deepen";
    return "llm_edit";
  }

  // One step from `index`; nullopt when the node may neither widen nor deepen now.
  Result<std::optional<SourceStep>> expand(std::size_t index) {
    if (!can_expand(index)) {
      if (!deepenable(index)) return std::optional<SourceStep>();
      return deepen(index);
    }
    std::string const action = next_action(index);
    ++node(index).expansions;
    if (action == "deepen") return deepen(index);
    if (action == "strategy") return strategy_step(index);
    return llm_step(index);
  }

  void note_outcome(std::size_t parent, std::size_t child) {
    bool const failed = result_.nodes[child].status != CandidateStatus::ok;
    failures_in_row_[parent] = failed ? failures_in_row_[parent] + 1 : 0;
    if (failures_in_row_[parent] >= options_.mcts.dead_end_window && parent != 0)
      node(parent).dead_end = true;
  }

  std::size_t add_child(std::size_t parent, std::string source, std::string const& action, NodeTuning tuning,
                        std::string label) {
    SourceNode child;
    child.parent = parent;
    child.action = action;
    child.depth = result_.nodes[parent].depth + 1;
    child.source = std::move(source);
    std::size_t const index = add_node(std::move(child), std::move(tuning), std::move(label));
    node(parent).children.push_back(index);
    note_outcome(parent, index);
    return index;
  }

  Result<std::optional<SourceStep>> llm_step(std::size_t index) {
    EditRequest request;
    request.context = context_for(index);
    request.options = planner_options_;
    request.parent_source = result_.nodes[index].source;
    request.parent_candidate = result_.nodes[index].candidate;
    request.parent_node = index;
    request.node = result_.nodes.size();
    auto edited = editor_.edit(request);
    if (!edited) return edited.error();
    if (edited->stopped) {
      stopped_ = true;
      stop_reason_ = edited->stop_reason;
    }
    NodeTuning tuning = edited->tuning ? std::move(*edited->tuning) : NodeTuning{};
    std::string const& status = edited->step.status;
    if (!edited->source &&
        (status == "llm_error" || status == "budget_exhausted" || status == "prompt_error")) {
      // A call that failed or was refused says nothing about the node: no child, no widening used.
      --node(index).expansions;
      edited->step.node = index;
      return std::optional<SourceStep>(std::move(edited->step));
    }
    std::string label = "llm_edit";
    if (!edited->step.choice.empty()) label += ": " + edited->step.choice;
    std::size_t const child =
        add_child(index, edited->source.value_or(""), "llm_edit", std::move(tuning), std::move(label));
    SourceStep step = std::move(edited->step);
    step.node = child;
    step.speedup = result_.nodes[child].best_speedup;
    return std::optional<SourceStep>(std::move(step));
  }

  Result<std::optional<SourceStep>> strategy_step(std::size_t index) {
    LibraryStrategy const* strategy = nullptr;
    for (LibraryStrategy const* candidate : strategies_) {
      if (tried_strategies_.insert(candidate->name).second) {
        strategy = candidate;
        break;
      }
    }
    if (strategy == nullptr) return llm_step(index);
    SourceStep step;
    step.parent = index;
    step.action = "strategy:" + strategy->name;
    auto source = instantiate_strategy(*library_, *strategy, task_, options_.arch_sm);
    NodeTuning tuning;
    std::string text;
    if (!source) {
      tuning.evaluated = true;
      tuning.status = CandidateStatus::compile_error;
      tuning.message = source.error().message;
      tuning.reward = failure_penalty(tuning.status);
    } else {
      text = *source;
      auto tuned = evaluations_.tune(text, result_.nodes[index].candidate, step.action, options_.node_budget,
                                     result_.nodes.size());
      if (!tuned) return tuned.error();
      tuning = std::move(*tuned);
    }
    step.status = tuning.evaluated ? std::string(to_string(tuning.status)) : "not_evaluated";
    step.message = tuning.message;
    step.evaluations = tuning.added;
    std::string const action = step.action;
    step.node = add_child(index, std::move(text), action, std::move(tuning), action);
    step.speedup = result_.nodes[step.node].best_speedup;
    return std::optional<SourceStep>(std::move(step));
  }

  // More knob budget for a node: its tuning again with a larger budget (the points it has cost nothing).
  Result<std::optional<SourceStep>> deepen(std::size_t index) {
    budgets_[index] += options_.node_budget;
    auto tuned = evaluations_.tune(result_.nodes[index].source, std::nullopt, "", budgets_[index], index);
    if (!tuned) return tuned.error();
    SourceStep step;
    step.node = index;
    step.parent = index;
    step.action = "deepen";
    step.status = std::string(to_string(tuned->status));
    step.evaluations = tuned->added;
    SourceNode& n = node(index);
    n.evaluations = tuned->points;
    if (tuned->best_speedup && (!n.best_speedup || *tuned->best_speedup > *n.best_speedup)) {
      n.best_speedup = tuned->best_speedup;
      n.candidate = tuned->best_candidate;
      n.best_config = tuned->best_config;
    }
    step.speedup = n.best_speedup;
    tunings_[index] = std::move(*tuned);
    return std::optional<SourceStep>(std::move(step));
  }

  // The planner's view of a node (planner_context.hpp).
  PromptContext context_for(std::size_t index) const {
    SourceNode const& n = result_.nodes[index];
    source_search_detail::NodeFacts facts{n.source, &tunings_[index], n.best_speedup, {}};
    for (std::size_t const child : n.children) {
      SourceNode const& c = result_.nodes[child];
      facts.children.push_back({labels_[child], c.status, c.best_speedup, tunings_[child].message});
    }
    return planner_context(base_, facts, log_.memory_prior(), options_.findings_chars);
  }

  Status finish() {
    result_.stop_reason = stop_reason_;
    result_.evaluations = evaluations_.unique();
    result_.from_store = evaluations_.from_store();
    result_.llm_calls = editor_.calls();
    result_.cost_usd = editor_.cost_usd();
    result_.cost_complete = editor_.cost_complete();
    if (auto const& incumbent = evaluations_.incumbent()) {
      result_.incumbent = incumbent->candidate;
      result_.incumbent_node = incumbent->node;
      result_.incumbent_config = incumbent->input.name;
      result_.incumbent_source = incumbent->input.source;
      result_.incumbent_screen_speedup = incumbent->speedup;
      if (options_.confirm) {
        auto confirmed = evaluations_.confirm();
        if (!confirmed) return confirmed.error();
        result_.confirmed = std::move(*confirmed);
      }
    }
    result_.evaluated = evaluations_.evaluated();
    return log_.record_memory(memory_);
  }

  TaskSpec const& task_;
  StrategyLibrary const* library_;
  SourceSearchOptions const& options_;
  RunLog& log_;
  RunEvaluations& evaluations_;
  LlmEditor& editor_;
  PromptContext base_;
  SourceSearchProgressCallback const& progress_;
  std::vector<LibraryStrategy const*> strategies_;
  std::vector<PromptOption> planner_options_;
  std::set<std::string> tried_strategies_;
  SourceSearchResult result_;
  std::vector<NodeTuning> tunings_;   // per node: its latest tuning
  std::vector<std::size_t> budgets_;  // per node: its tuning budget
  std::vector<std::string> labels_;   // per node: how siblings name it
  std::vector<int> failures_in_row_;  // per node: its latest expansions that failed, in a row
  std::vector<std::pair<std::string, double>> memory_;
  bool stopped_ = false;
  std::string stop_reason_;
};

}  // namespace

Result<SourceSearchResult> source_search(TaskSpec const& task, std::string const& source,
                                         StrategyLibrary const* library, LlmBackend& backend,
                                         CandidateEvaluator& evaluator, Store& store,
                                         SourceSearchOptions const& options,
                                         SourceSearchProgressCallback const& progress) {
  if (auto checked = check_options(options); !checked) return checked.error();
  CandidateMode const mode = detect_mode(source, task.signature.function).value_or(CandidateMode::kernel);
  auto context = prompt_context_for_task(task, "", mode);
  if (!context) return context.error();
  // The templates are checked before anything is recorded or paid for.
  auto prompts = find_prompts_dir(options.prompt.prompts_dir);
  if (!prompts) return prompts.error();
  for (PromptRole const role : {PromptRole::planner, PromptRole::coder, PromptRole::judge}) {
    if (role == PromptRole::judge && !options.judge) continue;
    if (auto loaded = load_prompt_template(*prompts, role); !loaded) return loaded.error();
  }
  SourceSearchOptions resolved = options;
  resolved.prompt.prompts_dir = *prompts;

  auto log = create_optimize_run(store, task, source, run_options(resolved));
  if (!log) return log.error();
  RunEvaluations evaluations(task, resolved, evaluator, *log);
  LlmEditor editor(backend, store, log->id(), resolved, evaluations);
  Search search(task, library, resolved, *log, evaluations, editor, std::move(*context), progress);
  auto result = search.run(source);
  if (auto finished = log->finish(result.ok()); !finished && result) return finished.error();
  return result;
}

}  // namespace kopt
