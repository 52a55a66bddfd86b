// The kopt.bench/1 document: every row, the geomeans and the goals.
#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "kopt/suite_bench.hpp"

namespace kopt {
namespace {

nlohmann::json optional(std::optional<double> v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json evidence_to_json(BenchEvidence const& e) {
  MetricHeadline const& h = e.headline;
  return {{"subject", e.subject},
          {"status", e.status},
          {"message", e.message},
          {"main_kernel", e.main_kernel},
          {"kernels", e.kernels},
          {"bottleneck", e.bottleneck},
          {"summary", e.summary},
          {"duration_us", optional(h.duration_us)},
          {"dram_pct", optional(h.dram_pct)},
          {"memory_pct", optional(h.memory_pct)},
          {"l2_pct", optional(h.l2_pct)},
          {"sm_pct", optional(h.sm_pct)},
          {"achieved_occupancy_pct", optional(h.achieved_occupancy_pct)},
          {"dram_bytes", optional(h.dram_bytes)},
          {"findings", e.findings}};
}

std::optional<double> number(nlohmann::json const& object, char const* key) {
  if (!object.contains(key) || !object[key].is_number()) return std::nullopt;
  return object[key].get<double>();
}

// Reads the fields of a kopt.bench/1 document that another tool or person may have written: a field that
// is absent takes its default, one of the wrong type (a null where a string belongs) is the first error,
// named by its place in the document.
class FieldReader {
 public:
  explicit FieldReader(std::string origin) : origin_(std::move(origin)) {}

  std::string text(nlohmann::json const& object, char const* key, std::string const& where) {
    if (!present(object, key, where, object.contains(key) && object[key].is_string(), "a string")) return {};
    return object[key].get<std::string>();
  }
  bool flag(nlohmann::json const& object, char const* key, std::string const& where) {
    if (!present(object, key, where, object.contains(key) && object[key].is_boolean(), "true or false"))
      return false;
    return object[key].get<bool>();
  }
  double real(nlohmann::json const& object, char const* key, std::string const& where) {
    if (!present(object, key, where, object.contains(key) && object[key].is_number(), "a number")) return 0.0;
    return object[key].get<double>();
  }
  std::size_t count(nlohmann::json const& object, char const* key, std::string const& where) {
    if (!present(object, key, where, object.contains(key) && object[key].is_number_unsigned(),
                 "a non-negative integer"))
      return 0;
    return object[key].get<std::size_t>();
  }
  std::optional<Error> const& error() const { return first_; }

 private:
  bool present(nlohmann::json const& object, char const* key, std::string const& where, bool typed,
               char const* expected) {
    if (!object.contains(key)) return false;
    if (typed) return true;
    if (!first_) {
      first_ = make_error(ErrorCode::invalid_spec, origin_ + ": " + where + key + ": expected " + expected +
                                                       ", got " + std::string(object[key].type_name()));
    }
    return false;
  }

  std::string origin_;
  std::optional<Error> first_;
};

BenchEvidence evidence_from_json(nlohmann::json const& j, FieldReader& read, std::string const& where) {
  BenchEvidence e;
  e.subject = read.text(j, "subject", where);
  e.status = read.text(j, "status", where);
  e.message = read.text(j, "message", where);
  e.main_kernel = read.text(j, "main_kernel", where);
  e.kernels = read.count(j, "kernels", where);
  e.bottleneck = read.text(j, "bottleneck", where);
  e.summary = read.text(j, "summary", where);
  e.headline.duration_us = number(j, "duration_us");
  e.headline.dram_pct = number(j, "dram_pct");
  e.headline.memory_pct = number(j, "memory_pct");
  e.headline.l2_pct = number(j, "l2_pct");
  e.headline.sm_pct = number(j, "sm_pct");
  e.headline.achieved_occupancy_pct = number(j, "achieved_occupancy_pct");
  e.headline.dram_bytes = number(j, "dram_bytes");
  if (j.contains("findings") && j["findings"].is_array()) {
    for (auto const& f : j["findings"]) {
      if (f.is_string()) e.findings.push_back(f.get<std::string>());
    }
  }
  return e;
}

// The `torch` object of a bench of PyTorch problems: the header and the metrics at the `problem` size case.
nlohmann::json torch_to_json(TorchBenchHeader const& h, TorchBenchMetrics const& m) {
  nlohmann::json fast = nlohmann::json::array();
  auto const fraction = [&](std::size_t count) {
    return m.problems == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(m.problems);
  };
  for (auto const& f : m.fast) {
    fast.push_back({{"p", f.p},
                    {"over_eager", fraction(f.over_eager)},
                    {"over_compile", fraction(f.over_compile)},
                    {"over_eager_count", f.over_eager},
                    {"over_compile_count", f.over_compile}});
  }
  return {{"corpus", h.corpus},
          {"corpus_commit", h.corpus_commit},
          {"precision", h.precision},
          {"torch_version", h.torch_version},
          {"compile_mode", h.compile_mode},
          {"size_case", "problem"},
          {"problems", m.problems},
          {"imported", m.imported},
          {"correct", m.correct},
          {"no_strategy", m.no_strategy},
          {"failed", m.failed},
          {"flagged", m.flagged},
          {"compile_missing", m.compile_missing},
          {"fast_p", fast},
          {"geomean_speedup_vs_eager", optional(m.geomean_vs_eager)},
          {"geomean_eager_problems", m.geomean_eager_count},
          {"geomean_speedup_vs_compile", optional(m.geomean_vs_compile)},
          {"geomean_compile_problems", m.geomean_compile_count}};
}

// The header of a `torch` object read back (the metrics are recomputed from the rows).
TorchBenchHeader torch_header_from_json(nlohmann::json const& j, FieldReader& read) {
  TorchBenchHeader h;
  h.corpus = read.text(j, "corpus", "torch.");
  h.corpus_commit = read.text(j, "corpus_commit", "torch.");
  h.precision = read.text(j, "precision", "torch.");
  h.torch_version = read.text(j, "torch_version", "torch.");
  if (j.contains("compile_mode")) h.compile_mode = read.text(j, "compile_mode", "torch.");
  return h;
}

// The list "a, b" with `item` added unless it is empty or already one of its entries.
std::string joined(std::string const& list, std::string const& item) {
  if (item.empty()) return list;
  if (list.empty()) return item;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t const end = std::min(list.find(", ", start), list.size());
    if (list.compare(start, end - start, item) == 0) return list;
    start = end + 2;
  }
  return list + ", " + item;
}

}  // namespace

nlohmann::json bench_to_json(BenchSummary const& summary) {
  nlohmann::json rows = nlohmann::json::array();
  for (auto const& r : summary.rows) {
    nlohmann::json evidence = nlohmann::json::array();
    for (auto const& e : r.evidence) evidence.push_back(evidence_to_json(e));
    rows.push_back({{"task", r.task},
                    {"scenario", r.scenario},
                    {"family", r.family},
                    {"size", r.size},
                    {"status", r.status},
                    {"strategy", r.strategy},
                    {"run", r.run ? nlohmann::json(*r.run) : nlohmann::json(nullptr)},
                    {"reference_us", optional(r.reference_us)},
                    {"best_us", optional(r.best_us)},
                    {"best_spread", optional(r.best_spread)},
                    {"baseline_us", optional(r.baseline_us)},
                    {"speedup", optional(r.speedup)},
                    {"vs_vendor", optional(r.vs_vendor)},
                    {"pct_of_sol", optional(r.pct_of_sol)},
                    {"achieved_gbps", optional(r.achieved_gbps)},
                    {"memory_bound", r.memory_bound},
                    {"largest", r.largest},
                    {"note", r.note},
                    {"evidence", evidence},
                    {"flags", r.flags}});
  }
  nlohmann::json geomeans = nlohmann::json::object();
  for (auto const& [scenario, value] : summary.geomean_by_scenario) geomeans[scenario] = value;
  nlohmann::json goals = nlohmann::json::array();
  for (auto const& g : summary.goals)
    goals.push_back({{"goal", g.name}, {"met", g.met}, {"detail", g.detail}});
  nlohmann::json document = {{"schema", "kopt.bench/1"},
                             {"device", summary.device},
                             {"started_at", summary.started_at},
                             {"elapsed_seconds", summary.elapsed_seconds},
                             {"rows", rows},
                             {"geomean_speedup_by_scenario", geomeans},
                             {"geomean_speedup", optional(summary.geomean_overall)},
                             {"goals", goals}};
  if (summary.torch) document["torch"] = torch_to_json(*summary.torch, summary.torch_metrics);
  return document;
}

Result<BenchSummary> bench_from_json(nlohmann::json const& json, std::string const& origin) {
  auto const bad = [&](std::string const& field, std::string const& expected) {
    return make_error(ErrorCode::invalid_spec, origin + ": " + field + ": expected " + expected);
  };
  if (!json.is_object() || !json.contains("schema") || json["schema"] != "kopt.bench/1")
    return bad("schema", "\"kopt.bench/1\"");
  if (!json.contains("rows") || !json["rows"].is_array()) return bad("rows", "an array");
  FieldReader read(origin);
  BenchSummary summary;
  summary.device = read.text(json, "device", "");
  summary.started_at = read.text(json, "started_at", "");
  summary.elapsed_seconds = read.real(json, "elapsed_seconds", "");
  if (json.contains("torch")) {
    if (!json["torch"].is_object()) return bad("torch", "an object");
    summary.torch = torch_header_from_json(json["torch"], read);
  }
  std::size_t index = 0;
  for (auto const& row : json["rows"]) {
    std::string const where = "rows[" + std::to_string(index) + "].";
    if (!row.is_object() || !row.contains("task") || !row["task"].is_string() || !row.contains("status")) {
      return bad("rows[" + std::to_string(index) + "]", "an object with task and status");
    }
    BenchRow r;
    r.task = read.text(row, "task", where);
    r.scenario = read.text(row, "scenario", where);
    r.family = read.text(row, "family", where);
    r.size = read.text(row, "size", where);
    r.status = read.text(row, "status", where);
    r.strategy = read.text(row, "strategy", where);
    if (row.contains("run") && row["run"].is_number_integer()) r.run = row["run"].get<std::int64_t>();
    r.reference_us = number(row, "reference_us");
    r.best_us = number(row, "best_us");
    r.best_spread = number(row, "best_spread");
    r.baseline_us = number(row, "baseline_us");
    r.speedup = number(row, "speedup");
    r.vs_vendor = number(row, "vs_vendor");
    r.pct_of_sol = number(row, "pct_of_sol");
    r.achieved_gbps = number(row, "achieved_gbps");
    r.memory_bound = read.flag(row, "memory_bound", where);
    r.largest = read.flag(row, "largest", where);
    r.note = read.text(row, "note", where);
    if (row.contains("evidence") && row["evidence"].is_array()) {
      std::size_t item = 0;
      for (auto const& e : row["evidence"]) {
        if (!e.is_object()) return bad("rows[" + std::to_string(index) + "].evidence", "an array of objects");
        r.evidence.push_back(
            evidence_from_json(e, read, where + "evidence[" + std::to_string(item++) + "]."));
      }
    }
    if (row.contains("flags")) {
      if (!row["flags"].is_array()) return bad(where + "flags", "an array of strings");
      for (auto const& flag : row["flags"]) {
        if (!flag.is_string()) return bad(where + "flags", "an array of strings");
        r.flags.push_back(flag.get<std::string>());
      }
    }
    if (read.error()) return *read.error();
    summary.rows.push_back(std::move(r));
    ++index;
  }
  if (read.error()) return *read.error();
  summarise_bench(summary);
  return summary;
}

BenchSummary merge_benches(std::vector<BenchSummary> const& parts) {
  BenchSummary merged;
  for (auto const& part : parts) {
    // A task run again in a later part (a re-run after a fix) replaces its earlier rows.
    std::set<std::string, std::less<>> tasks;
    for (auto const& row : part.rows) tasks.insert(row.task);
    std::erase_if(merged.rows, [&](BenchRow const& row) { return tasks.contains(row.task); });
    merged.rows.insert(merged.rows.end(), part.rows.begin(), part.rows.end());
    if (merged.device.find(part.device) == std::string::npos) {
      merged.device += (merged.device.empty() ? "" : ", ") + part.device;
    }
    merged.started_at += (merged.started_at.empty() ? "" : ", ") + part.started_at;
    merged.elapsed_seconds += part.elapsed_seconds;
    if (part.torch) {
      if (!merged.torch) {
        merged.torch = part.torch;
        continue;
      }
      merged.torch->corpus = joined(merged.torch->corpus, part.torch->corpus);
      merged.torch->corpus_commit = joined(merged.torch->corpus_commit, part.torch->corpus_commit);
      merged.torch->precision = joined(merged.torch->precision, part.torch->precision);
      merged.torch->torch_version = joined(merged.torch->torch_version, part.torch->torch_version);
      merged.torch->compile_mode = joined(merged.torch->compile_mode, part.torch->compile_mode);
    }
  }
  std::stable_sort(merged.rows.begin(), merged.rows.end(),
                   [](BenchRow const& a, BenchRow const& b) { return a.task < b.task; });
  summarise_bench(merged);
  return merged;
}

}  // namespace kopt
