#include "gpu_test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kopt::testing {

namespace {

std::filesystem::path env_path_or(char const* variable, std::filesystem::path const& fallback) {
  char const* value = std::getenv(variable);
  return value != nullptr && *value != '\0' ? std::filesystem::path(value) : fallback;
}

}  // namespace

EvalOptions gpu_test_options() {
  EvalOptions options;
  options.tier = TimingTier::screen;
  options.seed = kGpuTestSeed;
  options.worker_path =
      env_path_or("KOPT_WORKER", std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt-worker");
  options.compile.cache_dir = std::filesystem::temp_directory_path() / "kopt-gpu-tests-cache";
  return options;
}

std::filesystem::path source_path(std::filesystem::path const& relative) {
  return env_path_or("KOPT_SOURCE_DIR", KOPT_SOURCE_DIR) / relative;
}

std::string read_text(std::filesystem::path const& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool gpu_missing(Result<std::unique_ptr<Evaluator>> const& evaluator) {
  return !evaluator.ok() && evaluator.error().code == ErrorCode::no_gpu;
}

std::string describe(CandidateReport const& candidate) {
  std::ostringstream out;
  out << candidate.name << " (" << to_string(candidate.mode) << "): " << to_string(candidate.status);
  if (!candidate.message.empty()) out << ": " << candidate.message;
  for (auto const& size : candidate.sizes) {
    out << "\n  size " << size.size << ": " << to_string(size.status);
    if (!size.message.empty()) out << ": " << size.message;
    out << " (max abs err " << size.max_abs_err << ", max rel err " << size.max_rel_err << ", "
        << size.mismatches << " mismatches)";
    if (size.speedup) out << ", speedup " << *size.speedup;
    if (size.candidate) out << ", median " << size.candidate->us.median << " us";
  }
  if (!candidate.diagnostics.empty()) out << "\n  diagnostics:\n" << candidate.diagnostics;
  if (!candidate.sanitizer.empty()) out << "\n  sanitizer:\n" << candidate.sanitizer;
  return out.str();
}

SizeResult const* find_size(CandidateReport const& candidate, std::string_view size) {
  for (auto const& result : candidate.sizes) {
    if (result.size == size) return &result;
  }
  return nullptr;
}

}  // namespace kopt::testing
