// Insights in the store: CandidateInsight to the store's row and back, and the InsightSource that hands a
// search node's findings to proposers.
#include <string>
#include <utility>

#include "kopt/run_log.hpp"

namespace kopt {
namespace {

class StoreInsightSource final : public InsightSource {
 public:
  explicit StoreInsightSource(Store& store) : store_(&store) {}
  Result<std::vector<CandidateInsight>> insights(CandidateId candidate) override {
    return load_candidate_insights(*store_, candidate);
  }

 private:
  Store* store_;
};

}  // namespace

InsightRecord insight_record(CandidateInsight const& insight) {
  InsightRecord record;
  record.size = insight.size;
  record.source = insight.source;
  record.bottleneck = std::string(to_string(insight.classification.bottleneck));
  record.summary = insight.classification.summary;
  record.document = to_json(insight);
  return record;
}

std::vector<CandidateInsight> decode_insights(std::vector<StoredInsight> const& stored) {
  std::vector<CandidateInsight> insights;
  insights.reserve(stored.size());
  for (StoredInsight const& row : stored) {
    auto insight = insight_from_json(row.insight.document, "insight " + std::to_string(row.id.value()));
    if (insight) insights.push_back(std::move(*insight));
  }
  return insights;
}

Result<std::vector<CandidateInsight>> load_candidate_insights(Store& store, CandidateId candidate) {
  auto stored = store.insights_for_candidate(candidate);
  if (!stored) return stored.error();
  std::vector<CandidateInsight> const all = decode_insights(*stored);
  return current_insights(all);
}

std::unique_ptr<InsightSource> make_store_insight_source(Store& store) {
  return std::make_unique<StoreInsightSource>(store);
}

}  // namespace kopt
