// Store: llm_calls, one row per call to a language model (tokens, cost, latency, outcome; no prompt text).
#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

namespace {

constexpr std::string_view kLlmCallColumns =
    "l.id, l.run_id, l.candidate_id, l.role, l.purpose, l.model, l.backend, l.request_sha256, "
    "l.input_tokens, l.output_tokens, l.cached_input_tokens, l.reasoning_tokens, l.cost_usd, l.latency_ms, "
    "l.from_cache, l.status, l.error, l.created_at, l.rationale";

StoredLlmCall read_llm_call(store_detail::Statement const& row) {
  StoredLlmCall stored;
  stored.id = LlmCallId(row.int_column(0));
  stored.run = RunId(row.int_column(1));
  if (auto candidate = row.optional_int_column(2)) stored.call.candidate = CandidateId(*candidate);
  stored.call.role = row.text_column(3);
  stored.call.purpose = row.text_column(4);
  stored.call.model = row.text_column(5);
  stored.call.backend = row.text_column(6);
  stored.call.request_sha256 = row.text_column(7);
  stored.call.input_tokens = row.optional_int_column(8);
  stored.call.output_tokens = row.optional_int_column(9);
  stored.call.cached_input_tokens = row.optional_int_column(10);
  stored.call.reasoning_tokens = row.optional_int_column(11);
  stored.call.cost_usd = row.optional_double_column(12);
  stored.call.latency_ms = row.double_column(13);
  stored.call.from_cache = row.int_column(14) != 0;
  stored.call.status = row.text_column(15);
  stored.call.error = row.text_column(16);
  stored.created_at = row.text_column(17);
  stored.call.rationale = row.text_column(18);
  return stored;
}

}  // namespace

Result<LlmCallId> Store::add_llm_call(RunId run, LlmCallRecord const& call) {
  auto invalid = [&](std::string const& what) {
    return make_error(ErrorCode::invalid_argument, "store " + connection_->path.string() +
                                                       ": LLM call of run " + std::to_string(run.value()) +
                                                       ": " + what);
  };
  if (call.role.empty()) return invalid("role: expected generator, coder, planner or judge");
  if (call.status != "ok" && call.status != "error")
    return invalid("status: expected \"ok\" or \"error\", got \"" + call.status + "\"");
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto exists = connection_->require_row("runs", "run", run.value());
  if (!exists) return std::move(exists).error();
  if (call.candidate) {
    auto candidate = connection_->require_row("candidates", "candidate", call.candidate->value());
    if (!candidate) return std::move(candidate).error();
  }
  auto insert = connection_->prepare(
      "INSERT INTO llm_calls (run_id, candidate_id, role, purpose, model, backend, request_sha256, "
      "input_tokens, output_tokens, cached_input_tokens, reasoning_tokens, cost_usd, latency_ms, from_cache, "
      "status, error, rationale) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
      "?16, "
      "?17) "
      "RETURNING id");
  if (!insert) return std::move(insert).error();
  insert->bind_int(1, run.value());
  insert->bind_optional_int(2, call.candidate ? std::optional<std::int64_t>(call.candidate->value())
                                              : std::optional<std::int64_t>());
  insert->bind_text(3, call.role);
  insert->bind_text(4, call.purpose);
  insert->bind_text(5, call.model);
  insert->bind_text(6, call.backend);
  insert->bind_text(7, call.request_sha256);
  insert->bind_optional_int(8, call.input_tokens);
  insert->bind_optional_int(9, call.output_tokens);
  insert->bind_optional_int(10, call.cached_input_tokens);
  insert->bind_optional_int(11, call.reasoning_tokens);
  insert->bind_optional_double(12, call.cost_usd);
  insert->bind_double(13, call.latency_ms);
  insert->bind_int(14, call.from_cache ? 1 : 0);
  insert->bind_text(15, call.status);
  insert->bind_text(16, call.error);
  insert->bind_text(17, call.rationale);
  auto row = insert->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection_->error("INSERT INTO llm_calls returned no id");
  LlmCallId const id(insert->int_column(0));
  auto done = insert->run();
  if (!done) return std::move(done).error();
  auto committed = transaction->commit();
  if (!committed) return std::move(committed).error();
  return id;
}

Status Store::set_llm_call_candidate(LlmCallId call, CandidateId candidate) {
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto exists = connection_->require_row("llm_calls", "LLM call", call.value());
  if (!exists) return exists;
  auto select = connection_->prepare(
      "SELECT 1 FROM llm_calls l JOIN candidates c ON c.run_id = l.run_id WHERE l.id = ?1 AND c.id = ?2");
  if (!select) return std::move(select).error();
  select->bind_int(1, call.value());
  select->bind_int(2, candidate.value());
  auto same_run = select->step();
  if (!same_run) return std::move(same_run).error();
  if (!*same_run) {
    return make_error(ErrorCode::not_found, "store " + connection_->path.string() + ": LLM call " +
                                                std::to_string(call.value()) + ": its run has no candidate " +
                                                std::to_string(candidate.value()));
  }
  auto update = connection_->prepare("UPDATE llm_calls SET candidate_id = ?2 WHERE id = ?1");
  if (!update) return std::move(update).error();
  update->bind_int(1, call.value());
  update->bind_int(2, candidate.value());
  auto done = update->run();
  if (!done) return done;
  return transaction->commit();
}

Result<std::vector<StoredLlmCall>> Store::llm_calls_for_run(RunId run) {
  std::lock_guard lock(connection_->mutex);
  auto exists = connection_->require_row("runs", "run", run.value());
  if (!exists) return std::move(exists).error();
  auto select = connection_->prepare("SELECT " + std::string(kLlmCallColumns) +
                                     " FROM llm_calls l WHERE l.run_id = ?1 ORDER BY l.id");
  if (!select) return std::move(select).error();
  select->bind_int(1, run.value());
  std::vector<StoredLlmCall> calls;
  while (true) {
    auto next = select->step();
    if (!next) return std::move(next).error();
    if (!*next) break;
    calls.push_back(read_llm_call(*select));
  }
  return calls;
}

}  // namespace kopt
