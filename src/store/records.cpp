#include "store/records.hpp"

#include <cstdint>
#include <utility>

namespace kopt::store_detail {
namespace {

// Parses the JSON text in `column`; an Error names the table, row and column.
Result<nlohmann::json> json_column(Statement const& row, int column, std::string_view table, std::int64_t id,
                                   std::string_view name) {
  auto value = nlohmann::json::parse(row.text_column(column), nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return row.row_error("table " + std::string(table) + ", row " + std::to_string(id) + ", column " +
                         std::string(name) + ": expected JSON text");
  }
  return value;
}

}  // namespace

std::string to_json_text(nlohmann::json const& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<StoredRun> read_run(Statement const& row, int first) {
  StoredRun stored;
  stored.id = RunId(row.int_column(first));
  stored.run.task_name = row.text_column(first + 1);
  stored.run.task_dir = row.text_column(first + 2);
  stored.started_at = row.text_column(first + 3);
  stored.finished_at = row.optional_text_column(first + 4);
  auto options = json_column(row, first + 5, "runs", stored.id.value(), "options");
  if (!options) return std::move(options).error();
  stored.run.options = std::move(*options);
  stored.run.seed = static_cast<std::uint64_t>(row.int_column(first + 6));
  auto const status_text = row.text_column(first + 7);
  auto status = run_status_from_string(status_text);
  if (!status) {
    return row.row_error("table runs, row " + std::to_string(stored.id.value()) + ", column status: '" +
                         status_text + "' is not running, finished or interrupted");
  }
  stored.status = *status;
  auto budget = json_column(row, first + 8, "runs", stored.id.value(), "budget");
  if (!budget) return std::move(budget).error();
  stored.run.budget = std::move(*budget);
  if (auto session = row.optional_int_column(first + 9)) {
    stored.run.session =
        SessionPart{SessionId(*session), row.text_column(first + 10), row.text_column(first + 11)};
  }
  return stored;
}

Result<StoredSession> read_session(Statement const& row, int first) {
  StoredSession stored;
  stored.id = SessionId(row.int_column(first));
  stored.session.kind = row.text_column(first + 1);
  stored.session.task_name = row.text_column(first + 2);
  stored.session.task_dir = row.text_column(first + 3);
  auto options = json_column(row, first + 4, "sessions", stored.id.value(), "options");
  if (!options) return std::move(options).error();
  stored.session.options = std::move(*options);
  stored.started_at = row.text_column(first + 5);
  stored.finished_at = row.optional_text_column(first + 6);
  auto const status_text = row.text_column(first + 7);
  auto status = run_status_from_string(status_text);
  if (!status) {
    return row.row_error("table sessions, row " + std::to_string(stored.id.value()) + ", column status: '" +
                         status_text + "' is not running, finished or interrupted");
  }
  stored.status = *status;
  return stored;
}

Result<StoredCandidate> read_candidate(Statement const& row, int first) {
  StoredCandidate stored;
  stored.id = CandidateId(row.int_column(first));
  stored.run = RunId(row.int_column(first + 1));
  auto& candidate = stored.candidate;
  candidate.key = CandidateKey(row.text_column(first + 2));
  candidate.source = row.text_column(first + 3);
  auto knobs = json_column(row, first + 4, "candidates", stored.id.value(), "knobs");
  if (!knobs) return std::move(knobs).error();
  candidate.knobs = std::move(*knobs);
  auto flags = json_column(row, first + 5, "candidates", stored.id.value(), "flags");
  if (!flags) return std::move(flags).error();
  candidate.flags = std::move(*flags);
  if (auto parent = row.optional_int_column(first + 6)) candidate.parent = CandidateId(*parent);
  candidate.action = row.text_column(first + 7);
  candidate.mode = row.text_column(first + 8);
  stored.created_at = row.text_column(first + 9);
  return stored;
}

Result<StoredEvaluation> read_evaluation(Statement const& row, int first) {
  StoredEvaluation stored;
  stored.id = EvaluationId(row.int_column(first));
  stored.candidate = CandidateId(row.int_column(first + 1));
  auto& evaluation = stored.evaluation;
  auto const status_text = row.text_column(first + 2);
  auto status = candidate_status_from_string(status_text);
  if (!status) {
    return row.row_error("table evaluations, row " + std::to_string(stored.id.value()) +
                         ", column status: '" + status_text + "' is not a candidate status");
  }
  evaluation.status = *status;
  evaluation.message = row.text_column(first + 3);
  evaluation.device_name = row.text_column(first + 4);
  evaluation.device_uuid = row.text_column(first + 5);
  evaluation.driver = row.text_column(first + 6);
  evaluation.toolkit = row.text_column(first + 7);
  evaluation.tier = row.text_column(first + 8);
  evaluation.geomean_speedup = row.optional_double_column(first + 9);
  auto sizes = json_column(row, first + 10, "evaluations", stored.id.value(), "sizes");
  if (!sizes) return std::move(sizes).error();
  evaluation.sizes = std::move(*sizes);
  stored.created_at = row.text_column(first + 11);
  evaluation.objective_score = row.optional_double_column(first + 12);
  auto ran_on = json_column(row, first + 13, "evaluations", stored.id.value(), "ran_on");
  if (!ran_on) return std::move(ran_on).error();
  evaluation.ran_on = std::move(*ran_on);
  return stored;
}

Result<StoredInsight> read_insight(Statement const& row, int first) {
  StoredInsight stored;
  stored.id = InsightId(row.int_column(first));
  stored.evaluation = EvaluationId(row.int_column(first + 1));
  stored.candidate = CandidateId(row.int_column(first + 2));
  stored.insight.size = row.text_column(first + 3);
  stored.insight.source = row.text_column(first + 4);
  stored.insight.bottleneck = row.text_column(first + 5);
  stored.insight.summary = row.text_column(first + 6);
  auto document = json_column(row, first + 7, "insights", stored.id.value(), "document");
  if (!document) return std::move(document).error();
  stored.insight.document = std::move(*document);
  stored.created_at = row.text_column(first + 8);
  return stored;
}

Result<std::optional<BestCandidate>> read_best_candidate(Statement& select) {
  auto row = select.step();
  if (!row) return std::move(row).error();
  if (!*row) return std::optional<BestCandidate>();
  auto candidate = read_candidate(select);
  if (!candidate) return std::move(candidate).error();
  auto evaluation = read_evaluation(select, kCandidateColumnCount);
  if (!evaluation) return std::move(evaluation).error();
  return std::optional(BestCandidate{std::move(*candidate), std::move(*evaluation)});
}

}  // namespace kopt::store_detail
