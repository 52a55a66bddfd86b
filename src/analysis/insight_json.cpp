// CandidateInsight as "kopt.insight/1" JSON and back; errors name the field that is wrong.
#include <array>
#include <cmath>
#include <utility>

#include "kopt/insight.hpp"

namespace kopt {
namespace {

using nlohmann::json;

Error field_error(std::string_view origin, std::string const& field, std::string_view expected) {
  return make_error(ErrorCode::invalid_spec,
                    std::string(origin) + ": " + field + ": expected " + std::string(expected));
}

json evidence_json(Evidence const& evidence) {
  json out = json::object();
  for (auto const& [name, value] : evidence) {
    if (std::isfinite(value)) out[name] = value;  // non-finite evidence is unknown, as in analysis
  }
  return out;
}

// A missing member reads as an empty object; null values (non-finite numbers) are skipped.
Result<Evidence> evidence_from_json(json const& object, std::string_view origin, std::string const& field) {
  Evidence evidence;
  auto const it = object.find("evidence");
  if (it == object.end()) return evidence;
  if (!it->is_object()) return field_error(origin, field, "an object of numbers");
  for (auto const& [name, value] : it->items()) {
    if (value.is_null()) continue;
    if (!value.is_number()) return field_error(origin, field + "." + name, "a number");
    evidence.emplace(name, value.get<double>());
  }
  return evidence;
}

Result<std::string> string_field(json const& object, char const* key, std::string_view origin,
                                 std::string const& prefix, bool required = true) {
  auto const it = object.find(key);
  if (it == object.end() && !required) return std::string();
  if (it == object.end() || !it->is_string()) return field_error(origin, prefix + key, "a string");
  return it->get<std::string>();
}

template <class Enum, std::size_t N>
std::optional<Enum> enum_from(std::string_view text, std::array<Enum, N> const& values) {
  for (Enum const value : values)
    if (to_string(value) == text) return value;
  return std::nullopt;
}

constexpr std::array kSeverities{Severity::info, Severity::low, Severity::medium, Severity::high};
constexpr std::array kLevels{MemoryLevel::dram, MemoryLevel::l2, MemoryLevel::l1};
constexpr std::array kBases{ClassificationBasis::metrics, ClassificationBasis::roofline,
                            ClassificationBasis::none};

}  // namespace

json to_json(Classification const& classification) {
  json out{{"bottleneck", std::string(to_string(classification.bottleneck))},
           {"basis", std::string(to_string(classification.basis))},
           {"summary", classification.summary},
           {"evidence", evidence_json(classification.evidence)}};
  if (classification.memory_level) out["memory_level"] = std::string(to_string(*classification.memory_level));
  return out;
}

json to_json(Finding const& finding) {
  return json{{"tool", finding.tool},
              {"severity", std::string(to_string(finding.severity))},
              {"explanation", finding.explanation},
              {"strategies", finding.strategies},
              {"evidence", evidence_json(finding.evidence)}};
}

json to_json(CandidateInsight const& insight) {
  json findings = json::array();
  for (Finding const& finding : insight.findings) findings.push_back(to_json(finding));
  json out{{"schema", std::string(kInsightSchema)},
           {"size", insight.size},
           {"source", insight.source},
           {"classification", to_json(insight.classification)},
           {"findings", std::move(findings)}};
  if (insight.pct_of_sol && std::isfinite(*insight.pct_of_sol)) out["pct_of_sol"] = *insight.pct_of_sol;
  return out;
}

Result<Classification> classification_from_json(json const& json_value, std::string_view origin) {
  std::string const prefix = "classification.";
  if (!json_value.is_object()) return field_error(origin, "classification", "an object");
  Classification out;
  auto bottleneck = string_field(json_value, "bottleneck", origin, prefix);
  if (!bottleneck) return std::move(bottleneck).error();
  auto const parsed = bottleneck_class_from_string(*bottleneck);
  if (!parsed) {
    return field_error(origin, prefix + "bottleneck",
                       "memory_bound, compute_bound, latency_bound, small_grid, launch_overhead_bound or "
                       "balanced (not '" +
                           *bottleneck + "')");
  }
  out.bottleneck = *parsed;
  auto basis = string_field(json_value, "basis", origin, prefix);
  if (!basis) return std::move(basis).error();
  auto const parsed_basis = enum_from(*basis, kBases);
  if (!parsed_basis) return field_error(origin, prefix + "basis", "metrics, roofline or none");
  out.basis = *parsed_basis;
  if (auto const level = json_value.find("memory_level"); level != json_value.end() && !level->is_null()) {
    auto const parsed_level =
        level->is_string() ? enum_from(level->get<std::string>(), kLevels) : std::nullopt;
    if (!parsed_level) return field_error(origin, prefix + "memory_level", "dram, l2 or l1");
    out.memory_level = *parsed_level;
  }
  auto summary = string_field(json_value, "summary", origin, prefix, false);
  if (!summary) return std::move(summary).error();
  out.summary = std::move(*summary);
  auto evidence = evidence_from_json(json_value, origin, prefix + "evidence");
  if (!evidence) return std::move(evidence).error();
  out.evidence = std::move(*evidence);
  return out;
}

Result<Finding> finding_from_json(json const& json_value, std::string_view origin) {
  if (!json_value.is_object()) return field_error(origin, "finding", "an object");
  Finding out;
  auto tool = string_field(json_value, "tool", origin, "");
  if (!tool) return std::move(tool).error();
  out.tool = std::move(*tool);
  auto severity = string_field(json_value, "severity", origin, "");
  if (!severity) return std::move(severity).error();
  auto const parsed = enum_from(*severity, kSeverities);
  if (!parsed) return field_error(origin, "severity", "one of info, low, medium, high");
  out.severity = *parsed;
  auto explanation = string_field(json_value, "explanation", origin, "", false);
  if (!explanation) return std::move(explanation).error();
  out.explanation = std::move(*explanation);
  if (auto const strategies = json_value.find("strategies"); strategies != json_value.end()) {
    if (!strategies->is_array()) return field_error(origin, "strategies", "an array of strategy names");
    for (auto const& name : *strategies) {
      if (!name.is_string()) return field_error(origin, "strategies", "an array of strategy names");
      out.strategies.push_back(name.get<std::string>());
    }
  }
  auto evidence = evidence_from_json(json_value, origin, "evidence");
  if (!evidence) return std::move(evidence).error();
  out.evidence = std::move(*evidence);
  return out;
}

Result<CandidateInsight> insight_from_json(json const& json_value, std::string_view origin) {
  if (!json_value.is_object()) return field_error(origin, "document", "a JSON object");
  auto schema = string_field(json_value, "schema", origin, "");
  if (!schema || *schema != kInsightSchema)
    return field_error(origin, "schema", "\"" + std::string(kInsightSchema) + "\"");
  CandidateInsight out;
  auto size = string_field(json_value, "size", origin, "");
  if (!size) return std::move(size).error();
  out.size = std::move(*size);
  auto source = string_field(json_value, "source", origin, "");
  if (!source) return std::move(source).error();
  if (*source != insight_source::roofline && *source != insight_source::ncu)
    return field_error(origin, "source", "\"roofline\" or \"ncu\" (not '" + *source + "')");
  out.source = std::move(*source);
  auto const classification = json_value.find("classification");
  if (classification == json_value.end()) return field_error(origin, "classification", "an object");
  auto parsed = classification_from_json(*classification, origin);
  if (!parsed) return std::move(parsed).error();
  out.classification = std::move(*parsed);
  auto const findings = json_value.find("findings");
  if (findings != json_value.end()) {
    if (!findings->is_array()) return field_error(origin, "findings", "an array");
    for (std::size_t i = 0; i < findings->size(); ++i) {
      std::string const where = std::string(origin) + ": findings[" + std::to_string(i) + "]";
      auto finding = finding_from_json((*findings)[i], where);
      if (!finding) return std::move(finding).error();
      out.findings.push_back(std::move(*finding));
    }
  }
  if (auto const pct = json_value.find("pct_of_sol"); pct != json_value.end() && !pct->is_null()) {
    if (!pct->is_number()) return field_error(origin, "pct_of_sol", "a number");
    out.pct_of_sol = pct->get<double>();
  }
  return out;
}

}  // namespace kopt
