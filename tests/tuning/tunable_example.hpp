// Shared steps of the tests of the tunable examples (examples/<task>/tunable/*.cu): load the task and
// the candidate's space, enumerate it, and NVRTC-compile chosen configurations the way kopt optimize
// applies them.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/task.hpp"
#include "kopt/tuning.hpp"
#include "support/temp_dir.hpp"

namespace kopt::test {

struct TunableExample {
  TaskSpec task;
  std::string source;
  std::filesystem::path path;
  TuningSpace space;
  LaunchSpec launch;  // the candidate's launch annotation, knob names still in it
  Enumeration enumeration;
};

inline std::string read_text_file(std::filesystem::path const& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Loads examples/<task> and examples/<task>/tunable/<file>; fails the test (fatally) on any error.
inline void load_tunable_example(std::string const& task_name, std::string const& file, TunableExample& out) {
  std::filesystem::path const dir = std::filesystem::path(KOPT_SOURCE_DIR) / "examples" / task_name;
  auto task = load_task(dir);
  ASSERT_TRUE(task) << task.error().message;
  ASSERT_TRUE(task->launch.has_value());
  out.path = dir / "tunable" / file;
  out.source = read_text_file(out.path);
  ASSERT_FALSE(out.source.empty()) << out.path;
  ASSERT_EQ(detect_mode(out.source, task->signature.function), CandidateMode::kernel);
  auto space = TuningSpace::parse(out.source, file);
  ASSERT_TRUE(space) << space.error().message;
  auto launch = apply_launch_annotation(out.source, *task->launch);
  ASSERT_TRUE(launch) << launch.error().message;
  auto enumeration = space->enumerate(tuning_rules_for(*task, *launch));
  ASSERT_TRUE(enumeration) << enumeration.error().message;
  out.task = std::move(*task);
  out.space = std::move(*space);
  out.launch = std::move(*launch);
  out.enumeration = std::move(*enumeration);
}

// Every `step`-th valid configuration, starting with the first (step 1: all of them).
inline std::vector<Configuration> every_nth(std::vector<Configuration> const& valid, std::size_t step) {
  std::vector<Configuration> chosen;
  for (std::size_t i = 0; i < valid.size(); i += step) chosen.push_back(valid[i]);
  return chosen;
}

// Applies each configuration to the candidate and compiles them all with NVRTC (two jobs); fails the
// test on any apply or compile error. Returns the outcomes in the order of `configs`.
inline void compile_configurations(TunableExample const& example, std::vector<Configuration> const& configs,
                                   std::vector<CompileOutcome>& outcomes) {
  TempDir cache;
  CompileOptions options;
  options.cache_dir = cache.path();
  options.jobs = 2;
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler) << compiler.error().message;
  CompileRequest base;
  base.mode = CandidateMode::kernel;
  base.source = example.source;
  base.origin = example.path;
  base.entry = example.task.signature.function;
  std::vector<CompileRequest> requests;
  for (Configuration const& config : configs) {
    auto applied = example.space.apply(config, base, example.launch);
    ASSERT_TRUE(applied) << applied.error().message;
    requests.push_back(std::move(applied->request));
  }
  auto results = compiler->compile_all(requests);
  ASSERT_EQ(results.size(), requests.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    std::string const key = example.space.config_key(configs[i]);
    ASSERT_TRUE(results[i]) << key << ": " << results[i].error().message;
    ASSERT_TRUE(results[i]->ok) << key << ": " << results[i]->diagnostics;
    EXPECT_EQ(results[i]->artifact.symbol, example.task.signature.function) << key;
    outcomes.push_back(std::move(*results[i]));
  }
}

// The candidate compiles on its own, with the #ifndef defaults of its knobs.
inline void expect_compiles_with_defaults(std::string const& task_name, std::string const& file) {
  TunableExample example;
  ASSERT_NO_FATAL_FAILURE(load_tunable_example(task_name, file, example));
  TempDir cache;
  CompileOptions options;
  options.cache_dir = cache.path();
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler) << compiler.error().message;
  CompileRequest request;
  request.mode = CandidateMode::kernel;
  request.source = example.source;
  request.origin = example.path;
  request.entry = example.task.signature.function;
  auto outcome = compiler->compile(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
}

}  // namespace kopt::test
