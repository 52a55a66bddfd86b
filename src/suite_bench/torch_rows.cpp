// Flags and notes on the rows of a PyTorch problem (`kopt bench --torch`), and the importer's record read
// for them.
#include "suite_bench/torch_rows.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

namespace kopt::bench_detail {
namespace {

std::string text_field(nlohmann::json const& json, char const* key) {
  auto const it = json.find(key);
  return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

TorchAbiNotes read_torch_abi_notes(std::filesystem::path const& task_dir) {
  std::ifstream in(task_dir / "torch_abi.json", std::ios::binary);
  if (!in) return {};
  auto const json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return {};
  return TorchAbiNotes{text_field(json, "torch"), text_field(json, "degenerate")};
}

void finish_torch_rows(std::span<BenchRow> rows, TorchAbiNotes const& notes, CandidateReport const& report) {
  for (BenchRow& row : rows) {
    if (!notes.degenerate.empty()) row.flags.push_back("degenerate: " + notes.degenerate);
    if (row.status == "ok" && row.reference_us && row.best_us && *row.best_us > 0.0 &&
        *row.reference_us / *row.best_us > kSuspiciousSpeedup) {
      row.flags.push_back(fmt::format(
          "suspicious: {:.0f}x as fast as PyTorch eager on size {} (over {:.0f}x); check that the problem's "
          "output depends on its inputs",
          *row.reference_us / *row.best_us, row.size, kSuspiciousSpeedup));
    }
    if (row.reference_us && !row.baseline_us) {
      bool const says_why = report.message.find("torch.compile") != std::string::npos;
      std::string const why = says_why ? ": " + report.message : std::string();
      row.note += std::string(row.note.empty() ? "" : "; ") + "no torch.compile timing" + why;
    }
  }
}

}  // namespace kopt::bench_detail
