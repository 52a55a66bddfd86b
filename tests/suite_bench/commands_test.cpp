// `kopt strategies` and `kopt bench --merge` end to end: the built kopt executable on the real strategy
// library and suite (no GPU needed), and the argument errors of `kopt bench` and `kopt optimize`.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kopt/propose.hpp"
#include "kopt/store.hpp"
#include "kopt/suite_bench.hpp"
#include "kopt/tuning.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace commands_test {

namespace fs = std::filesystem;

std::string read_text(fs::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

struct KoptCommand : ::testing::Test {
  void SetUp() override {
    kopt = fs::path(KOPT_BINARY_DIR) / "bin" / "kopt";
    if (!fs::exists(kopt)) GTEST_SKIP() << "build the kopt executable first (" << kopt << ")";
  }
  Outcome run(std::string const& arguments) {
    auto const out = dir.path() / "stdout";
    auto const err = dir.path() / "stderr";
    std::string const command = "cd " + std::string(KOPT_SOURCE_DIR) + " && " + kopt.string() + " " +
                                arguments + " >" + out.string() + " 2>" + err.string();
    int const status = std::system(command.c_str());
    return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(out), read_text(err)};
  }
  test::TempDir dir;
  fs::path kopt;
};

TEST_F(KoptCommand, StrategiesListsTheLibraryAndWhatAppliesToATask) {
  auto all = run("strategies");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("strategies in "), std::string::npos);
  EXPECT_NE(all.out.find("vectorized_map1"), std::string::npos);
  auto relu = run("strategies suites/llm/relu-bf16");
  ASSERT_EQ(relu.exit_code, 0) << relu.err;
  EXPECT_NE(relu.out.find("relu-bf16 (family activation): 2 of"), std::string::npos) << relu.out;
  EXPECT_NE(relu.out.find("+ vectorized_map1"), std::string::npos);
  auto json = run("strategies suites/llm/relu-bf16 --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto const document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["schema"], "kopt.strategies/1");
  EXPECT_EQ(document["task"], "relu-bf16");
}

TEST_F(KoptCommand, InstantiateWritesATunableCandidate) {
  auto const file = dir.path() / "relu.cu";
  auto result = run("strategies suites/llm/relu-bf16 --instantiate vectorized_map1 -o " + file.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto const text = read_text(file);
  EXPECT_NE(text.find("__nv_bfloat16"), std::string::npos);
  EXPECT_EQ(text.find("{{"), std::string::npos);
  auto space = TuningSpace::parse(text, "relu.cu");
  ASSERT_TRUE(space) << space.error().message;
  EXPECT_FALSE(space->empty());
  EXPECT_NE(result.err.find("kopt optimize suites/llm/relu-bf16 --from"), std::string::npos) << result.err;
}

// A task without a family, its inputs first: the binding is verified by kopt optimize on the GPU and kept in
// the store; here the store is given that record directly, as optimize would leave it.
TEST_F(KoptCommand, WriteBindingPinsTheBindingTheStoreHoldsAsVerified) {
  auto const task_dir = dir.path() / "vadd";
  fs::copy(fs::path(KOPT_SOURCE_DIR) / "tests" / "propose" / "foreign" / "vector_add-inputs_first", task_dir);
  auto const store_path = dir.path() / "kopt.db";
  std::string const task_arguments = "strategies " + task_dir.string() + " --store " + store_path.string();

  auto none = run(task_arguments + " --write-binding");
  EXPECT_EQ(none.exit_code, 1) << none.out << none.err;
  EXPECT_NE(none.err.find("no verified binding of vadd"), std::string::npos) << none.err;
  EXPECT_EQ(read_text(task_dir / "task.toml").find("[binding]"), std::string::npos);

  auto task = load_task(task_dir);
  ASSERT_TRUE(task) << task.error().message;
  auto library = load_strategy_library(fs::path(KOPT_SOURCE_DIR) / "strategies");
  ASSERT_TRUE(library) << library.error().message;
  auto const chosen = choose_strategies(*library, *task, 90);
  ASSERT_FALSE(chosen.empty());
  auto const applicability = check_applicability(*chosen.front(), *task, 90);
  StrategyBinding const& verified = applicability.bindings.back();  // the last plausible one, say
  {
    auto store = Store::open(store_path);
    ASSERT_TRUE(store) << store.error().message;
    VerifiedBinding record;
    record.task_key = binding_task_key(*task);
    record.strategy = chosen.front()->name;
    record.contract = chosen.front()->signature;
    record.binding = verified.describe();
    for (auto const& [role, value] : binding_roles(verified)) record.roles[role] = value;
    ASSERT_TRUE(store->record_verified_binding(record));
  }

  auto listed = run(task_arguments);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("binding " + verified.describe() + " (verified "), std::string::npos)
      << listed.out;

  auto written = run(task_arguments + " --write-binding");
  ASSERT_EQ(written.exit_code, 0) << written.out << written.err;
  std::string const text = read_text(task_dir / "task.toml");
  EXPECT_NE(text.find("[binding]  # written by kopt strategies --write-binding: " + chosen.front()->name),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# A vector sum as many people write it"), std::string::npos) << "comments are kept";
  auto reloaded = load_task(task_dir);
  ASSERT_TRUE(reloaded) << reloaded.error().message;
  for (auto const& [role, value] : binding_roles(verified)) {
    ASSERT_EQ(reloaded->binding.count(role), 1u) << role;
    EXPECT_EQ(reloaded->binding.at(role), value) << role;
  }
  // Pinned: one binding is left, and it is the verified one; writing again changes nothing.
  auto const pinned = check_applicability(*chosen.front(), *reloaded, 90);
  ASSERT_EQ(pinned.bindings.size(), 1u);
  EXPECT_EQ(pinned.bindings.front().describe(), verified.describe());
  auto again = run(task_arguments + " --write-binding --json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto const document = nlohmann::json::parse(again.out);
  EXPECT_EQ(document["schema"], "kopt.write_binding/1");
  EXPECT_TRUE(document["written"].empty());
  EXPECT_EQ(read_text(task_dir / "task.toml"), text);
}

TEST_F(KoptCommand, UnknownStrategiesAndMisusedOptionsAreUsageErrors) {
  auto show = run("strategies --show no_such_strategy");
  EXPECT_EQ(show.exit_code, 2);
  EXPECT_NE(show.err.find("no strategy named 'no_such_strategy'"), std::string::npos) << show.err;
  auto other = run("strategies suites/llm/relu-f32 --instantiate softmax_warp_per_row");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("does not apply to relu-f32: serves row_softmax"), std::string::npos) << other.err;
  auto bench = run("bench");
  EXPECT_EQ(bench.exit_code, 2);
  EXPECT_NE(bench.err.find("expected a suite folder"), std::string::npos) << bench.err;
  auto mixed = run("optimize suites/llm/relu-f32 --from x.cu --use vectorized_map1");
  EXPECT_EQ(mixed.exit_code, 2);
}

// PyTorch problems (docs/bench.md, "PyTorch problems"): what is refused before any GPU work.
TEST_F(KoptCommand, BenchOnPyTorchProblemsRefusesWhatCannotRun) {
  auto const empty = dir.path() / "no_problems";
  fs::create_directories(empty);
  std::ofstream(empty / "helpers.py") << "def helper():\n    return 1\n";
  auto none = run("bench --torch " + empty.string());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no PyTorch problem (a .py file with class Model) under the given folders"),
            std::string::npos)
      << none.err;
  auto no_search = run("bench suites/pytorch/level1 --no-search");
  EXPECT_EQ(no_search.exit_code, 2);
  EXPECT_NE(no_search.err.find("--no-search: not available for PyTorch problems"), std::string::npos)
      << no_search.err;
  auto precision = run("bench suites/pytorch/level1 --precision fp16");
  EXPECT_EQ(precision.exit_code, 2);
}

TEST_F(KoptCommand, BenchMergeCombinesPartsIntoOneTable) {
  auto part = [&](std::string const& task, double speedup) {
    BenchSummary s;
    s.device = "NVIDIA H200";
    BenchRow r;
    r.task = task;
    r.scenario = task.substr(0, task.find('/'));
    r.family = "activation";
    r.size = "large";
    r.status = "ok";
    r.reference_us = 100.0 * speedup;
    r.best_us = 100.0;
    r.speedup = speedup;
    r.largest = true;
    s.rows = {r};
    summarise_bench(s);
    auto const path = dir.path() / (std::to_string(static_cast<int>(speedup)) + ".json");
    std::ofstream(path) << bench_to_json(s).dump(2);
    return path.string();
  };
  auto const a = part("llm/relu-f32", 4.0);
  auto const b = part("algebra/dot-f32", 100.0);
  auto const out = dir.path() / "merged";
  auto result = run("bench --merge " + a + " " + b + " --out " + out.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("Geomean speedup over the reference: 20.0x"), std::string::npos) << result.out;
  for (auto const* name : {"bench.json", "bench.md", "bench.svg"})
    EXPECT_TRUE(fs::exists(out / name)) << name;
  auto bad = run("bench --merge " + (dir.path() / "missing.json").string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("cannot read the file"), std::string::npos);
}

}  // namespace commands_test
}  // namespace kopt
