// Mapping between table rows and the store's value types: the column lists every SELECT uses (with the
// table aliases r, c, e, i, s) and the decoders that read them back, validating JSON and enum text.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/result.hpp"
#include "kopt/store.hpp"
#include "store/statement.hpp"

namespace kopt::store_detail {

inline constexpr std::string_view kRunColumns =
    "r.id, r.task_name, r.task_dir, r.started_at, r.finished_at, r.options, r.seed, r.status, r.budget, "
    "r.session_id, r.session_strategy, r.session_phase";
inline constexpr int kRunColumnCount = 12;
inline constexpr std::string_view kSessionColumns =
    "s.id, s.kind, s.task_name, s.task_dir, s.options, s.started_at, s.finished_at, s.status";
inline constexpr int kSessionColumnCount = 8;
inline constexpr std::string_view kCandidateColumns =
    "c.id, c.run_id, c.content_key, c.source, c.knobs, c.flags, c.parent_id, c.action, c.mode, c.created_at";
inline constexpr int kCandidateColumnCount = 10;
inline constexpr std::string_view kEvaluationColumns =
    "e.id, e.candidate_id, e.status, e.message, e.device_name, e.device_uuid, e.driver, e.toolkit, e.tier, "
    "e.geomean_speedup, e.sizes, e.created_at, e.objective_score, e.ran_on";
inline constexpr int kEvaluationColumnCount = 14;
inline constexpr std::string_view kInsightColumns =
    "i.id, i.evaluation_id, i.candidate_id, i.size, i.source, i.bottleneck, i.summary, i.document, "
    "i.created_at";
inline constexpr int kInsightColumnCount = 9;

// JSON as stored: compact, invalid UTF-8 replaced rather than thrown on.
std::string to_json_text(nlohmann::json const& value);

// Each reads its columns starting at `first`.
Result<StoredRun> read_run(Statement const& row, int first = 0);
Result<StoredSession> read_session(Statement const& row, int first = 0);  // without its runs
Result<StoredCandidate> read_candidate(Statement const& row, int first = 0);
Result<StoredEvaluation> read_evaluation(Statement const& row, int first = 0);
// Steps a query that selects kCandidateColumns then kEvaluationColumns: its first row, or nothing.
Result<std::optional<BestCandidate>> read_best_candidate(Statement& select);
Result<StoredInsight> read_insight(Statement const& row, int first = 0);

}  // namespace kopt::store_detail
