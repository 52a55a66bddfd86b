// The real strategy library (strategies/) against the real suite (suites/): every strategy serves at least
// one suite task; instantiated for every task it applies to, its tuning space parses and has valid
// configurations; and its first and last valid configurations compile for sm_90 and sm_80 (issue #5's CI
// requirement), with no GPU. One test per strategy, discovered from the tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "kopt/compile.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/tuning.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace library_suite_test {

namespace fs = std::filesystem;

fs::path const kSource = fs::path(KOPT_SOURCE_DIR);

StrategyLibrary const& library() {
  static StrategyLibrary const loaded = [] {
    auto l = load_strategy_library(kSource / "strategies");
    if (!l) {
      ADD_FAILURE() << l.error().message;
      return StrategyLibrary{};
    }
    return *l;
  }();
  return loaded;
}

std::vector<TaskSpec> const& suite_tasks() {
  static std::vector<TaskSpec> const tasks = [] {
    std::vector<TaskSpec> out;
    std::error_code ec;
    std::vector<fs::path> dirs;
    for (auto const& e : fs::recursive_directory_iterator(kSource / "suites", ec)) {
      if (e.path().filename() == "task.toml") dirs.push_back(e.path().parent_path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (auto const& d : dirs) {
      if (auto t = load_task(d)) out.push_back(std::move(*t));
    }
    return out;
  }();
  return tasks;
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (auto const& s : library().strategies) names.push_back(s.name);
  return names;
}

// Families of the suite that no strategy serves yet (docs/strategies.md, "Coverage"). A family leaves this
// list when it gets a strategy; the test below fails until it does.
std::set<std::string> const kFamiliesWithoutStrategies = {};

// Every launch and asynchronous copy in a template goes to kopt_strategy::launch_stream(), so that a
// strategy bound to a launcher that takes the caller's stream runs on it (docs/strategies.md, "Binding").
TEST(StrategyLibrary, EveryLaunchGoesToTheLaunchStream) {
  std::size_t launches = 0;
  std::error_code ec;
  for (auto const& e : fs::recursive_directory_iterator(kSource / "strategies", ec)) {
    auto const ext = e.path().extension();
    if (ext != ".cu" && ext != ".cuh") continue;
    std::ifstream in(e.path());
    std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = text.find("<<<"); at != std::string::npos; at = text.find("<<<", at + 3)) {
      std::size_t const end = text.find(">>>", at);
      ASSERT_NE(end, std::string::npos) << e.path();
      EXPECT_NE(text.substr(at, end - at).find("kopt_strategy::launch_stream()"), std::string::npos)
          << e.path() << ": " << text.substr(at, end + 3 - at);
      ++launches;
    }
    for (char const* call : {"cudaMemsetAsync(", "cudaMemcpyAsync("}) {
      for (std::size_t at = text.find(call); at != std::string::npos; at = text.find(call, at + 1)) {
        std::size_t const end = text.find(';', at);
        EXPECT_NE(text.substr(at, end - at).find("kopt_strategy::launch_stream()"), std::string::npos)
            << e.path() << ": " << text.substr(at, end - at);
      }
    }
    for (char const* blocking :
         {"cudaStreamPerThread", "cudaMemset(", "cudaMemcpy(", "cudaDeviceSynchronize"})
      EXPECT_EQ(text.find(blocking), std::string::npos) << e.path() << " uses " << blocking;
  }
  EXPECT_GT(launches, 20u);
}

TEST(StrategyLibrary, LoadsAndEverySuiteFamilyHasAStrategyOrIsAKnownGap) {
  ASSERT_FALSE(library().strategies.empty());
  std::set<std::string> served;
  for (auto const& s : library().strategies) served.insert(s.families.begin(), s.families.end());
  std::set<std::string> families;
  for (auto const& t : suite_tasks()) {
    if (!t.is_chain()) families.insert(t.family);
    for (StageSpec const& stage : t.stages) families.insert(stage.family);  // a chain's stages
  }
  for (auto const& f : families) {
    bool const gap = kFamiliesWithoutStrategies.contains(f);
    EXPECT_TRUE(served.contains(f) || gap) << "no strategy serves the suite family " << f;
    EXPECT_FALSE(served.contains(f) && gap)
        << f << " has strategies now: remove it from kFamiliesWithoutStrategies";
  }
}

CompileRequest request_for(CandidateInput const& candidate, TaskSpec const& task) {
  CompileRequest request;
  request.source = candidate.source;
  request.origin = candidate.name + ".cu";
  request.flags = candidate.flags;
  request.include_dirs = {task.dir};
  auto const mode = detect_mode(candidate.source, task.signature.function);
  request.mode = mode.value_or(CandidateMode::kernel);
  request.entry = task.signature.function;
  if (request.mode == CandidateMode::kernel) {
    auto launch = candidate_launch(candidate.source, task.launch, task.signature.function);
    if (launch) request.entry = launch->kernel;
  } else {
    request.libraries = task.baseline ? task.baseline->libraries : task.reference.libraries;
  }
  return request;
}

// A size dispatch of two configurations of one strategy: the first for the odd-numbered timed cases, the
// second for the others; nullopt when the task's launcher has no integer parameter.
std::optional<SizeDispatchPlan> two_configuration_plan(TaskSpec const& task, TuningSpace const& space,
                                                       std::string const& text, Configuration const& first,
                                                       Configuration const& second) {
  SizeDispatchPlan plan;
  for (Param const& p : task.signature.params) {
    if (!p.is_pointer && !is_floating(p.dtype)) plan.scalars.push_back(p.name);
  }
  if (plan.scalars.empty()) return std::nullopt;
  for (Configuration const* config : {&first, &second}) {
    auto input = materialise(space, *config, text, task);
    if (!input) return std::nullopt;
    plan.variants.push_back({"", *input, {}});
  }
  plan.flags = plan.variants[0].input.flags;
  for (SizeCase const& size : task.sizes) {
    SizeDispatchPlan::Case c{size.name, {}, plan.cases.size() % 2};
    for (std::string const& name : plan.scalars) {
      auto const* value = std::get_if<std::int64_t>(&size.values.at(name));
      c.point.push_back(value != nullptr ? *value : 0);
    }
    plan.variants[c.variant].sizes.push_back(size.name);
    plan.cases.push_back(std::move(c));
  }
  return plan;
}

class LibraryStrategyOnSuite : public ::testing::TestWithParam<std::string> {};

TEST_P(LibraryStrategyOnSuite, InstantiatesEnumeratesAndCompiles) {
  auto const* strategy = library().find(GetParam());
  ASSERT_NE(strategy, nullptr);
  std::map<DType, TaskSpec const*> representative;  // the first applicable task per element type
  std::size_t applicable = 0;
  for (auto const& task : suite_tasks()) {
    auto const a = check_applicability(*strategy, task, 90);
    if (!a.applies) continue;
    ++applicable;
    // The suite's own tasks are the contracts themselves: their parameters fill the roles in order (their
    // instantiation is the template as written), and a role past them takes its default (a norm's eps) or a
    // size an earlier role has (cross-attention's S_kv = S on a self-attention task).
    StrategyBinding const& first = a.bindings.front();
    bool in_order = first.identity;
    // Except a task that passes buffers no output depends on (affects_outputs = false:
    // batchnorm_train_forward, a PyTorch module's launcher with its running statistics), which is no
    // contract's signature on purpose.
    in_order = in_order || std::any_of(task.buffers.begin(), task.buffers.end(),
                                       [](BufferSpec const& b) { return !b.affects_outputs; });
    if (!in_order && first.roles.size() > task.signature.params.size()) {
      in_order = true;
      for (std::size_t i = 0; i < first.roles.size(); ++i) {
        RoleBinding const& r = first.roles[i];
        in_order =
            in_order &&
            (i < task.signature.params.size()
                 ? r.parameter == task.signature.params[i].name
                 : (r.parameter.empty() && strategy->defaults.contains(r.role.name)) ||
                       (!r.role.is_pointer && !r.parameter.empty() &&
                        std::any_of(first.roles.begin(), first.roles.begin() + i,
                                    [&](RoleBinding const& e) { return e.parameter == r.parameter; })));
      }
    }
    EXPECT_TRUE(in_order) << task.name << ": " << first.describe();
    auto text = instantiate_strategy(library(), *strategy, task, 90);
    ASSERT_TRUE(text) << text.error().message;
    auto space = TuningSpace::parse(*text, strategy->template_path.filename().string());
    ASSERT_TRUE(space) << task.name << ": " << space.error().message;
    auto enumeration = space->enumerate(tuning_rules_for(task));
    ASSERT_TRUE(enumeration) << task.name << ": " << enumeration.error().message;
    EXPECT_FALSE(enumeration->valid.empty()) << task.name << ": no valid configuration";
    representative.emplace(a.element, &task);
  }
  ASSERT_GT(applicable, 0u) << strategy->name << " serves no suite task";

  // The first configuration compiles as `kopt optimize` builds one candidate, for sm_90 and, unless the
  // strategy needs Hopper, sm_80: a launcher in the same nvcc run (a second -gencode: one host pass instead
  // of two), a kernel through NVRTC for sm_80 on its own. For the first element type the first and the last
  // configurations compile as one size dispatch (docs/strategies.md, "Dispatch by size"), which holds both
  // texts: for a launcher strategy that one nvcc run, for the same architectures, stands for the first
  // configuration's own build too (its text is the candidate's, namespaced), one nvcc run fewer per strategy
  // (CI's 90 minutes, docs/building.md, "Times"); a kernel strategy's dispatch is generated host code around
  // it, so its kernel compiles on its own as well. Without a dispatch the last configuration compiles alone.
  bool const portable = strategy->min_arch <= 80;
  std::string const both = portable ? "sm_90+sm_80" : "sm_90";
  test::TempDir cache;
  std::map<std::string, std::optional<Compiler>> compilers;
  for (std::string arch : {"sm_90", "sm_90+sm_80", "sm_80"}) {
    if (arch != "sm_90" && !portable) continue;
    CompileOptions options;
    options.arch = arch.substr(0, 5);
    if (arch == "sm_90+sm_80") options.gencode = {"arch=compute_80,code=sm_80"};
    options.cache_dir = cache.path();
    options.jobs = 1;
    auto compiler = Compiler::create(options);
    ASSERT_TRUE(compiler) << compiler.error().message;
    compilers[arch] = std::move(*compiler);
  }
  auto expect_compiles = [&](CompileRequest const& request, std::string const& arch,
                             std::string const& what) {
    auto outcome = compilers.at(arch)->compile(request);
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_TRUE(outcome->ok) << strategy->name << " " << what << " (" << arch << "):\n"
                             << outcome->diagnostics;
  };
  bool first_dtype = true;
  for (auto const& [element, task] : representative) {
    auto text = instantiate_strategy(library(), *strategy, *task, 90);
    ASSERT_TRUE(text);
    auto space = TuningSpace::parse(*text, strategy->template_path.filename().string());
    ASSERT_TRUE(space);
    auto enumeration = space->enumerate(tuning_rules_for(*task));
    ASSERT_TRUE(enumeration && !enumeration->valid.empty());
    Configuration const& first = enumeration->valid.front();
    Configuration const& last = enumeration->valid.back();
    auto candidate = materialise(*space, first, *text, *task);
    ASSERT_TRUE(candidate) << candidate.error().message;
    CompileRequest const request = request_for(*candidate, *task);
    std::string const what = "for " + task->name + " (" + candidate->name + ")";
    bool const dispatched = std::exchange(first_dtype, false);
    // The first and last configurations as one dispatch by size. A launcher without an integer parameter
    // has no sizes to tell apart: no dispatch.
    auto plan = dispatched ? two_configuration_plan(*task, *space, *text, first, last) : std::nullopt;
    bool const in_dispatch = plan.has_value() && request.mode == CandidateMode::launcher;
    if (!in_dispatch) {
      if (request.mode == CandidateMode::launcher || !portable) {
        expect_compiles(request, both, what);
      } else {
        expect_compiles(request, "sm_90", what);
        expect_compiles(request, "sm_80", what);
      }
    }
    if (!dispatched) continue;
    if (!plan) {
      if (enumeration->valid.size() < 2) continue;
      auto last_candidate = materialise(*space, last, *text, *task);
      ASSERT_TRUE(last_candidate) << last_candidate.error().message;
      expect_compiles(request_for(*last_candidate, *task), "sm_90",
                      "for " + task->name + " (" + last_candidate->name + ")");
      continue;
    }
    plan->variants[0].strategy = plan->variants[1].strategy = strategy->name;
    auto dispatch = size_dispatch_candidate(*task, *plan);
    ASSERT_TRUE(dispatch) << dispatch.error().message;
    CompileRequest dispatch_request = request_for(*dispatch, *task);
    EXPECT_EQ(dispatch_request.mode, CandidateMode::launcher);
    dispatch_request.origin =
        "dispatch.cu";  // the evaluator names no origin; the name holds spaces and quotes
    expect_compiles(dispatch_request, in_dispatch ? both : "sm_90",
                    "for " + task->name + ", as a size dispatch holding " + candidate->name);
  }
}

std::string test_name(::testing::TestParamInfo<std::string> const& param) {
  return param.param;
}

INSTANTIATE_TEST_SUITE_P(Library, LibraryStrategyOnSuite, ::testing::ValuesIn(strategy_names()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LibraryStrategyOnSuite);

}  // namespace library_suite_test
}  // namespace kopt
