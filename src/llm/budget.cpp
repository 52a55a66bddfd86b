// LlmBudget: --max-calls and --max-cost, and the backend wrapper that refuses calls past them.
#include <cmath>
#include <cstdio>

#include "kopt/llm.hpp"

namespace kopt {
namespace {

constexpr std::string_view kBudgetPrefix = "LLM budget exhausted";

std::string usd(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "$%.4f", value);
  return buffer;
}

// The most a request can cost: its prompt at ~1 token per 3 bytes (generous) and max_tokens of output.
std::optional<double> worst_case(PriceTable const& prices, std::string const& model,
                                 LlmRequest const& request) {
  std::size_t bytes = request.system.size();
  for (auto const& message : request.messages) bytes += message.text.size();
  LlmUsage usage;
  usage.input_tokens = static_cast<std::int64_t>(bytes / 3 + 1);
  usage.output_tokens = request.max_tokens;
  return prices.cost(model, usage);
}

class BudgetedBackend final : public LlmBackend {
 public:
  BudgetedBackend(std::unique_ptr<LlmBackend> inner, std::shared_ptr<LlmBudget> budget, PriceTable prices,
                  std::string default_model)
      : inner_(std::move(inner)),
        budget_(std::move(budget)),
        prices_(std::move(prices)),
        default_model_(std::move(default_model)) {}

  std::string identity() const override { return inner_->identity(); }

  Result<LlmReply> complete(LlmRequest const& request) override {
    auto const verdict =
        budget_->admit(worst_case(prices_, request.model.empty() ? default_model_ : request.model, request));
    if (verdict != BudgetVerdict::allowed) {
      return make_error(ErrorCode::invalid_argument, budget_->describe(verdict));
    }
    auto reply = inner_->complete(request);
    if (reply) budget_->record(*reply);
    return reply;
  }

 private:
  std::unique_ptr<LlmBackend> inner_;
  std::shared_ptr<LlmBudget> budget_;
  PriceTable prices_;
  std::string default_model_;
};

}  // namespace

std::string_view to_string(BudgetVerdict verdict) noexcept {
  switch (verdict) {
    case BudgetVerdict::allowed: return "allowed";
    case BudgetVerdict::calls_exhausted: return "calls_exhausted";
    case BudgetVerdict::cost_exhausted: return "cost_exhausted";
    case BudgetVerdict::cost_unknown: return "cost_unknown";
  }
  return "allowed";
}

BudgetVerdict LlmBudget::check_locked(std::optional<double> worst_case_usd) const {
  if (limits_.max_calls && calls_ >= *limits_.max_calls) return BudgetVerdict::calls_exhausted;
  if (limits_.max_cost_usd) {
    if (cost_unknown_) return BudgetVerdict::cost_unknown;
    if (spent_usd_ >= *limits_.max_cost_usd) return BudgetVerdict::cost_exhausted;
    if (worst_case_usd && spent_usd_ + *worst_case_usd > *limits_.max_cost_usd)
      return BudgetVerdict::cost_exhausted;
  }
  return BudgetVerdict::allowed;
}

BudgetVerdict LlmBudget::check(std::optional<double> worst_case_usd) const {
  std::lock_guard lock(mutex_);
  return check_locked(worst_case_usd);
}

BudgetVerdict LlmBudget::admit(std::optional<double> worst_case_usd) {
  std::lock_guard lock(mutex_);
  auto const verdict = check_locked(worst_case_usd);
  if (verdict == BudgetVerdict::allowed) ++calls_;
  return verdict;
}

void LlmBudget::record(LlmReply const& reply) {
  std::lock_guard lock(mutex_);
  if (reply.from_cache) return;
  if (reply.cost_usd) {
    spent_usd_ += *reply.cost_usd;
  } else {
    cost_unknown_ = true;
  }
}

int LlmBudget::calls() const {
  std::lock_guard lock(mutex_);
  return calls_;
}

double LlmBudget::spent_usd() const {
  std::lock_guard lock(mutex_);
  return spent_usd_;
}

std::string LlmBudget::describe(BudgetVerdict verdict) const {
  std::lock_guard lock(mutex_);
  std::string const prefix(kBudgetPrefix);
  switch (verdict) {
    case BudgetVerdict::allowed:
      return "LLM budget: " + std::to_string(calls_) + " calls, " + usd(spent_usd_);
    case BudgetVerdict::calls_exhausted:
      return prefix + ": --max-calls " + std::to_string(limits_.max_calls.value_or(0)) + " reached (" +
             std::to_string(calls_) + " calls made)";
    case BudgetVerdict::cost_exhausted:
      return prefix + ": --max-cost " + usd(limits_.max_cost_usd.value_or(0)) + " would be passed (" +
             usd(spent_usd_) + " spent in " + std::to_string(calls_) + " calls)";
    case BudgetVerdict::cost_unknown:
      return prefix + ": --max-cost " + usd(limits_.max_cost_usd.value_or(0)) +
             " cannot be enforced: a call's cost is unknown (no price for its model in the price table)";
  }
  return std::string(kBudgetPrefix);
}

std::unique_ptr<LlmBackend> with_budget(std::unique_ptr<LlmBackend> inner, std::shared_ptr<LlmBudget> budget,
                                        PriceTable prices, std::string default_model) {
  return std::make_unique<BudgetedBackend>(std::move(inner), std::move(budget), std::move(prices),
                                           std::move(default_model));
}

bool is_llm_budget_error(Error const& error) noexcept {
  return error.code == ErrorCode::invalid_argument &&
         std::string_view(error.message).substr(0, kBudgetPrefix.size()) == kBudgetPrefix;
}

}  // namespace kopt
