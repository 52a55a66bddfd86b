#include "worker/gpu/violations.hpp"

#include <utility>

#include "kopt/candidate_status.hpp"

namespace kopt::worker {

std::string summarize_violations(std::vector<std::string> const& reports, std::size_t limit) {
  std::vector<std::pair<std::string, std::size_t>> distinct;
  for (auto const& report : reports) {
    bool seen = false;
    for (auto& [text, count] : distinct) {
      if (text == report) {
        ++count;
        seen = true;
        break;
      }
    }
    if (!seen) distinct.emplace_back(report, 1);
  }
  std::string out;
  for (std::size_t i = 0; i < distinct.size() && i < limit; ++i) {
    if (!out.empty()) out += "; ";
    out += distinct[i].first;
    if (distinct[i].second > 1) out += " (" + std::to_string(distinct[i].second) + " times)";
  }
  if (distinct.size() > limit) out += "; and " + std::to_string(distinct.size() - limit) + " more";
  return out;
}

bool mark_sandbox_violation(nlohmann::json& reply, std::vector<std::string> const& reports) {
  if (reports.empty() || !reply.is_object() || !reply.contains("candidate") ||
      !reply["candidate"].is_object())
    return false;
  nlohmann::json& candidate = reply["candidate"];
  std::string message =
      "tried to leave the worker's sandbox (each attempt was refused): " + summarize_violations(reports);
  if (std::string const earlier = candidate.value("message", std::string()); !earlier.empty()) {
    message += "; the verdict without it: " + candidate.value("status", std::string("ok")) + ": " + earlier;
  }
  candidate["status"] = std::string(to_string(CandidateStatus::sandbox_violation));
  candidate["message"] = message;
  reply["restart"] = true;
  return true;
}

}  // namespace kopt::worker
