// Shared by the propose tests: writing a small library or task into a temporary folder, and the spec of a
// c = a + b task whose length scalar is named `n` (or anything else, to check {{ARGi}}), and compiling a
// candidate as the evaluator would.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "eval/artifact_requests.hpp"
#include "kopt/compile.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/tuning.hpp"
#include "support/temp_dir.hpp"

namespace kopt::test {

inline void write_file(std::filesystem::path const& path, std::string const& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string add_task_toml(std::string const& n) {
  return "name = \"add\"\ndescription = \"c = a + b\"\nfamily = \"elementwise\"\n[entry]\n"
         "signature = 'extern \"C\" void add(float* c, const float* a, const float* b, int " +
         n +
         ")'\n"
         "[buffers.c]\nlength = \"" +
         n + "\"\n[buffers.a]\nlength = \"" + n + "\"\n[buffers.b]\nlength = \"" + n +
         "\"\n[[sizes]]\nname = \"small\"\n" + n +
         " = 1000\n[reference]\nsource = \"reference.cu\"\n"
         "[launch]\ngrid = [\"ceil_div(" +
         n + ", 256)\"]\nblock = [\"256\"]\n";
}

// Two elementwise strategies for c = a + b with one knob each: by_block (BLOCK) and by_tile (TILE).
inline std::string const kTwoStrategyManifest = R"kopt([[strategy]]
name = "by_block"
families = ["elementwise"]
template = "by_block.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
description = "Knob BLOCK."
applies_when = "Always."

[[strategy]]
name = "by_tile"
families = ["elementwise"]
template = "by_tile.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
description = "Knob TILE."
applies_when = "Always."
)kopt";

// A kernel-mode template of that contract with one knob and an empty body.
inline std::string knob_kernel(std::string const& knob, std::string const& values) {
  return "// kopt:knob " + knob + " = " + values + "\n" +
         "extern \"C\" __global__ void {{ENTRY}}({{T}}* c, const {{T}}* a, const {{T}}* b, int n) {}\n";
}

// The library of those two under `root`: by_block with BLOCK in [128, 256], by_tile with TILE in [1, 2, 4,
// 8].
inline void write_two_strategy_library(std::filesystem::path const& root) {
  write_file(root / "common" / "strategy.cuh", "// common\n");
  write_file(root / "g" / "strategies.toml", kTwoStrategyManifest);
  write_file(root / "g" / "by_block.cu", knob_kernel("BLOCK", "[128, 256]"));
  write_file(root / "g" / "by_tile.cu", knob_kernel("TILE", "[1, 2, 4, 8]"));
}

// The first (or last) valid configuration of `text`'s tuning space, materialised as the evaluator gets it
// (the text itself, with no #define, when it declares no knob).
inline Result<CandidateInput> first_configuration(TaskSpec const& task, std::string const& text,
                                                  bool last = false) {
  auto space = TuningSpace::parse(text);
  if (!space) return space.error();
  auto enumeration = space->enumerate(tuning_rules_for(task));
  if (!enumeration) return enumeration.error();
  if (enumeration->valid.empty()) return make_error(ErrorCode::invalid_spec, "no valid configuration");
  return materialise(*space, last ? enumeration->valid.back() : enumeration->valid.front(), text, task);
}

// The size dispatch the CPU and GPU tests share, for suites/algebra/row_sum-bf16 (`task`): the library's
// row_reduce_block_per_row for the wide case, row_reduce_warp_per_row for medium and large (docs/bench.md),
// each at its first or last valid configuration.
inline Result<SizeDispatchPlan> row_sum_dispatch_plan(StrategyLibrary const& library, TaskSpec const& task,
                                                      bool last) {
  SizeDispatchPlan plan;
  for (std::string const name : {"row_reduce_block_per_row", "row_reduce_warp_per_row"}) {
    auto const* strategy = library.find(name);
    if (strategy == nullptr) return make_error(ErrorCode::not_found, "no strategy " + name);
    auto text = instantiate_strategy(library, *strategy, task, 90);
    if (!text) return text.error();
    auto input = first_configuration(task, *text, last);
    if (!input) return input.error();
    plan.variants.push_back({name, *input, {}});
  }
  plan.variants[0].sizes = {"wide"};
  plan.variants[1].sizes = {"medium", "large"};
  plan.scalars = {"rows", "cols"};
  plan.cases = {{"medium", {4096, 4096}, 1}, {"wide", {128, 262144}, 0}, {"large", {65536, 2048}, 1}};
  plan.flags = plan.variants[0].input.flags;
  return plan;
}

// Compiles a candidate for sm_90 the way the evaluator plans it (plan_candidate: mode, kernel name, launch
// arguments), in a throw-away cache. Error: the plan failed or no compiler could be made.
inline Result<CompileOutcome> compile_as_evaluated(TaskSpec const& task, std::string const& name,
                                                   std::string text, std::vector<std::string> flags = {}) {
  CandidateSource source;
  source.name = name;
  source.source = std::move(text);
  source.flags = std::move(flags);
  CandidatePlan const plan = plan_candidate(task, source, std::nullopt);
  if (!plan.request) return make_error(ErrorCode::invalid_spec, name + ": " + plan.failure);
  TempDir cache;
  CompileOptions options;
  options.arch = "sm_90";
  options.cache_dir = cache.path();
  auto compiler = Compiler::create(options);
  if (!compiler) return compiler.error();
  return compiler->compile(*plan.request);
}

}  // namespace kopt::test
