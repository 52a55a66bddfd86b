// LlmEditor: planner -> coder -> apply -> evaluate, with the failures fed back for bounded repair rounds.
#include "source_search/llm_edit.hpp"

#include <fmt/format.h>

#include <chrono>

#include "kopt/generate.hpp"

namespace kopt::source_search_detail {
namespace {

std::vector<std::string> option_names(std::vector<PromptOption> const& options) {
  std::vector<std::string> names;
  names.reserve(options.size());
  for (PromptOption const& option : options) names.push_back(option.name);
  return names;
}

PromptOption const* find_option(std::vector<PromptOption> const& options, std::string const& name) {
  for (PromptOption const& option : options) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

}  // namespace

Result<LlmEditor::Reply> LlmEditor::call(LlmRequest const& request, std::string const& role,
                                         std::string const& purpose, EditOutcome& outcome,
                                         std::function<std::string(std::string const&)> const& rationale_of) {
  auto const started = std::chrono::steady_clock::now();
  auto reply = backend_.complete(request);
  if (!reply && is_llm_budget_error(reply.error())) {
    outcome.stopped = true;
    outcome.stop_reason = redact_secret(reply.error().message, options_.secret);
    outcome.step.status = "budget_exhausted";
    outcome.step.message = outcome.stop_reason;
    return Reply{};
  }
  ++calls_;
  ++outcome.step.llm_calls;
  double const elapsed_ms =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() * 1000.0;
  LlmCallRecord record = llm_call_record(
      request, reply, {role, purpose, options_.model, options_.backend_kind, options_.secret}, elapsed_ms);
  if (reply && rationale_of) record.rationale = redact_secret(rationale_of(reply->text), options_.secret);
  if (reply) {
    if (reply->cost_usd) {
      cost_usd_ += *reply->cost_usd;
      outcome.step.cost_usd += *reply->cost_usd;
    } else {
      cost_complete_ = false;
    }
  }
  auto id = store_.add_llm_call(run_, record);
  if (!id) return id.error();
  if (!reply) {
    outcome.step.status = "llm_error";
    outcome.step.message = head_lines(record.error, options_.error_excerpt_bytes);
    return Reply{std::nullopt, *id};
  }
  return Reply{std::move(reply->text), *id};
}

// The planner's choice: asked again with the reason when its reply has no plan or names no option, within
// the repair rounds. nullopt when it never answered usably (or a call failed or was refused).
Result<std::optional<PlannerReply>> LlmEditor::plan(EditRequest const& request, EditOutcome& outcome,
                                                    std::vector<LlmCallId>& calls) {
  PromptContext context = request.context;
  context.options = request.options;
  auto const names = option_names(request.options);
  for (int round = 0; round <= options_.repairs; ++round) {
    auto prompt = build_planner_prompt(context, options_.prompt);
    if (!prompt) {
      outcome.step.status = "prompt_error";
      outcome.step.message = prompt.error().message;
      return std::optional<PlannerReply>();
    }
    std::string const purpose = round == 0
                                    ? fmt::format("node {}: plan", request.parent_node)
                                    : fmt::format("node {}: plan, retry {}", request.parent_node, round);
    // Parsed once, when the call is recorded: a planner's rationale is its PLAN paragraph.
    std::optional<ReplyResult<PlannerReply>> parsed;
    auto reply = call(prompt->request, "planner", purpose, outcome, [&](std::string const& text) {
      parsed.emplace(parse_planner_reply(text, names));
      return *parsed && !(*parsed)->plan.empty() ? (*parsed)->plan : reply_prose(text);
    });
    if (!reply) return reply.error();
    if (reply->call) calls.push_back(*reply->call);
    if (!reply->text || !parsed) return std::optional<PlannerReply>();
    if (*parsed) return std::optional<PlannerReply>(**parsed);
    outcome.step.status = std::string(to_string(parsed->failure().kind));
    outcome.step.message = parsed->failure().message;
    context.errors = parsed->failure().message;
  }
  return std::optional<PlannerReply>();
}

Result<JudgeReply> LlmEditor::judge(PromptContext context, std::string const& kernel, std::size_t node,
                                    EditOutcome& outcome) {
  JudgeReply accept;
  accept.accept = true;
  context.kernel_source = kernel;
  context.errors.clear();
  auto prompt = build_judge_prompt(context, options_.prompt);
  if (!prompt) return accept;
  auto reply = call(prompt->request, "judge", fmt::format("node {}: review", node), outcome);
  if (!reply) return reply.error();
  if (!reply->text) return accept;
  auto verdict = parse_judge_reply(*reply->text);
  if (!verdict) return accept;
  return *verdict;
}

Result<EditOutcome> LlmEditor::edit(EditRequest const& request) {
  EditOutcome outcome;
  outcome.step.action = "llm_edit";
  outcome.step.parent = request.parent_node;
  outcome.step.node = request.node;
  std::vector<LlmCallId> planner_calls;
  auto planned = plan(request, outcome, planner_calls);
  if (!planned) return planned.error();
  if (!*planned) return outcome;
  PlannerReply const& plan = **planned;
  outcome.step.choice = plan.choice;
  outcome.step.rationale = redact_secret(plan.plan, options_.secret);

  PromptContext context = request.context;
  context.siblings.clear();
  context.plan = plan.plan;
  context.strategy_name = plan.choice;
  if (PromptOption const* option = find_option(request.options, plan.choice)) {
    context.strategy_description = option->description;
    context.strategy_applies_when = option->applies_when;
  }
  std::string current = request.parent_source;
  std::optional<CandidateId> parent = request.parent_candidate;
  std::optional<CandidateId> last_candidate;
  for (int round = 0; round <= options_.repairs; ++round) {
    context.kernel_source = current;
    auto prompt = build_coder_prompt(context, options_.prompt);
    if (!prompt) {
      outcome.step.status = "prompt_error";
      outcome.step.message = prompt.error().message;
      break;
    }
    std::string const purpose = round == 0
                                    ? fmt::format("node {}: {}, edit", request.node, plan.choice)
                                    : fmt::format("node {}: {}, repair {}", request.node, plan.choice, round);
    ++outcome.step.rounds;
    auto reply = call(prompt->request, "coder", purpose, outcome);
    if (!reply) return reply.error();
    if (!reply->text) {
      outcome.step.round_statuses.push_back(outcome.step.status);
      break;
    }
    auto kernel = parse_kernel_reply(*reply->text, current);
    if (!kernel) {
      // Rejected (no match, several matches, no code, ...): the next coder prompt carries the reason.
      outcome.step.status = std::string(to_string(kernel.failure().kind));
      outcome.step.message = kernel.failure().message;
      outcome.step.round_statuses.push_back(outcome.step.status);
      context.errors = kernel.failure().message;
      continue;
    }
    if (options_.judge) {
      auto verdict = judge(context, kernel->source, request.node, outcome);
      if (!verdict) return verdict.error();
      if (outcome.stopped) break;
      if (!verdict->accept) {
        outcome.step.status = "judge_rejected";
        outcome.step.message = verdict->reason;
        outcome.step.round_statuses.push_back(outcome.step.status);
        context.errors = "A reviewer rejected this kernel before it was run: " + verdict->reason;
        context.kernel_source = current;
        continue;
      }
    }
    std::string const action = outcome.source ? "llm_repair" : "llm_edit";
    auto tuning = evaluations_.tune(kernel->source, parent, action, options_.node_budget, request.node);
    if (!tuning) return tuning.error();
    if (!tuning->evaluated) {  // the run's evaluations are spent
      outcome.step.status = "not_evaluated";
      outcome.step.message = "the run's budget of evaluations was spent before this kernel";
      outcome.step.round_statuses.push_back(outcome.step.status);
      break;
    }
    if (tuning->first_candidate && reply->call) {
      if (auto linked = store_.set_llm_call_candidate(*reply->call, *tuning->first_candidate); !linked)
        return linked.error();
    }
    outcome.step.evaluations += tuning->added;
    outcome.source = kernel->source;
    outcome.step.status = std::string(to_string(tuning->status));
    outcome.step.message = tuning->message;
    outcome.step.round_statuses.push_back(outcome.step.status);
    last_candidate = tuning->best_candidate ? tuning->best_candidate : tuning->first_candidate;
    bool const ok = tuning->status == CandidateStatus::ok;
    outcome.tuning = std::move(*tuning);
    if (ok) break;
    // Compile error, wrong output, ...: the coder repairs the kernel it wrote, told what went wrong.
    context.errors = outcome.tuning->errors;
    current = *outcome.source;
    parent = outcome.tuning->first_candidate;
  }
  // The planner's rationale goes with the kernel the step ended on.
  if (last_candidate) {
    for (LlmCallId const id : planner_calls) {
      if (auto linked = store_.set_llm_call_candidate(id, *last_candidate); !linked) return linked.error();
    }
  }
  return outcome;
}

}  // namespace kopt::source_search_detail
