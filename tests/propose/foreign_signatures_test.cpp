// Foreign signatures (tests/propose/foreign/): computations the library serves, written the way users
// write them (their names, their parameter order, sizes passed or not, an extra scalar, no family), each
// with the binding a person reading it would choose in expect.toml. Every one must bind with no help:
// for every strategy of the family that applies, that binding is among the first kProbeBudget the
// enumeration ranks (the proposer verifies them in that order on the GPU, tests/gpu/foreign_test.cpp), a
// task without a family is offered its family, and the instantiation under that binding compiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "kopt/compile.hpp"
#include "kopt/detail/toml.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/tuning.hpp"
#include "propose/contract.hpp"
#include "propose/propose_fixtures.hpp"

namespace kopt {
namespace foreign_signatures_test {

namespace fs = std::filesystem;

fs::path const kSource = fs::path(KOPT_SOURCE_DIR);
constexpr std::size_t kProbeBudget = 4;  // ProposeOptions::binding_probes' default

struct ForeignCase {
  fs::path dir;
  std::string family;   // whose strategies must bind
  std::string binding;  // StrategyBinding::describe() of the right binding
  // Strategies of the family that bind but compute another variant of it (an inverse FFT scaled by 1/N
  // for cuFFT's unscaled one, the family's fixed integrand for the user's own): not held to the binding
  // here; on the GPU none of their bindings may verify (tests/gpu/foreign_binding_test.cpp).
  std::set<std::string> other_variants;
};

std::vector<ForeignCase> foreign_cases() {
  std::vector<ForeignCase> out;
  std::error_code ec;
  for (auto const& entry : fs::directory_iterator(kSource / "tests" / "propose" / "foreign", ec)) {
    if (!fs::exists(entry.path() / "expect.toml")) continue;
    ForeignCase c;
    c.dir = entry.path();
    try {
      auto const expect = toml::parse_file((entry.path() / "expect.toml").string());
      c.family = expect["family"].value_or(std::string());
      c.binding = expect["binding"].value_or(std::string());
      if (auto const* names = expect["other_variants"].as_array()) {
        for (auto const& name : *names) c.other_variants.insert(name.value_or(std::string()));
      }
    } catch (toml::parse_error const& e) {
      ADD_FAILURE() << entry.path() << ": " << e.description();
    }
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](ForeignCase const& a, ForeignCase const& b) { return a.dir < b.dir; });
  return out;
}

StrategyLibrary const& library() {
  static StrategyLibrary const loaded = [] {
    auto l = load_strategy_library(kSource / "strategies");
    if (!l) ADD_FAILURE() << l.error().message;
    return l ? *l : StrategyLibrary{};
  }();
  return loaded;
}

// "out=y, in=x, n=n" as its sorted role=value pairs.
std::set<std::string> role_pairs(std::string const& described) {
  std::set<std::string> pairs;
  std::size_t start = 0;
  while (start <= described.size()) {
    std::size_t const end = std::min(described.find(", ", start), described.size());
    pairs.insert(described.substr(start, end - start));
    start = end + 2;
  }
  return pairs;
}

class ForeignSignature : public ::testing::TestWithParam<ForeignCase> {};

TEST_P(ForeignSignature, BindsWithNoHelpAndCompiles) {
  ForeignCase const& c = GetParam();
  ASSERT_FALSE(c.family.empty()) << c.dir << "/expect.toml: family";
  ASSERT_FALSE(c.binding.empty()) << c.dir << "/expect.toml: binding";
  auto task = load_task(c.dir);
  ASSERT_TRUE(task) << task.error().message;

  std::set<std::string> expected_roles;  // the role names c.binding gives
  for (std::string const& pair : role_pairs(c.binding)) expected_roles.insert(pair.substr(0, pair.find('=')));
  std::size_t of_family = 0;
  std::set<std::string> offered;  // families of every strategy that applies
  // The adapters compiled at the end: the first kernel-mode strategy's (args=), the first that copies an
  // inout buffer, adds into it or is given a slice (the generated host code), the first for a task with a
  // buffer no role takes (scratch), and every strategy's where compile_every says.
  std::vector<std::pair<LibraryStrategy const*, StrategyBinding>> adapted;
  bool const has_scratch = std::any_of(task->buffers.begin(), task->buffers.end(),
                                       [](BufferSpec const& b) { return b.role == Role::scratch; });
  bool const has_stream = std::any_of(task->signature.params.begin(), task->signature.params.end(),
                                      [](Param const& p) { return p.is_stream; });
  // Every strategy's adapter is compiled where each has something of its own to get right: the stream it
  // launches on, the status it returns, the task's float2* or cufftComplex* passed as its float*.
  bool const compile_every = has_stream || task->signature.returns_error ||
                             std::any_of(task->signature.params.begin(), task->signature.params.end(),
                                         [](Param const& p) { return p.lanes > 1; });
  for (LibraryStrategy const& strategy : library().strategies) {
    auto const a = check_applicability(strategy, *task, 90);
    if (a.applies) offered.insert(strategy.families.begin(), strategy.families.end());
    if (std::find(strategy.families.begin(), strategy.families.end(), c.family) == strategy.families.end()) {
      continue;
    }
    bool const element_supported = std::any_of(strategy.dtypes.begin(), strategy.dtypes.end(), [&](DType d) {
      return std::any_of(task->signature.params.begin(), task->signature.params.end(),
                         [&](Param const& p) { return p.is_pointer && p.dtype == d; });
    });
    // A strategy whose contract has an integer buffer of a type the task has none of is not this task's
    // (a fixed int32 index where the task's are int64); a contract with the index type I takes either.
    auto const index_types_present = [&](DType index) {
      auto const contract = strategy_contract(strategy, DType::f32, index);
      return contract &&
             std::all_of(contract->params.begin(), contract->params.end(), [&](Param const& role) {
               return !role.is_pointer || is_floating(role.dtype) ||
                      std::any_of(
                          task->signature.params.begin(), task->signature.params.end(), [&](Param const& p) {
                            // a bool buffer is the bytes a uint8_t role reads (a PyTorch mask)
                            return p.is_pointer && (p.dtype == role.dtype ||
                                                    (role.dtype == DType::u8 && p.dtype == DType::boolean));
                          });
             });
    };
    bool const indices_present = index_types_present(DType::i32) ||
                                 (has_index_type(strategy.signature) && index_types_present(DType::i64));
    // A strategy that writes more buffers than the task does, or fewer, computes another variant of the
    // family (a LayerNorm that also keeps its mean and rstd, and one that does not).
    auto const contract = strategy_contract(strategy, DType::f32, DType::i32);
    auto const written_roles = contract
                                   ? std::count_if(contract->params.begin(), contract->params.end(),
                                                   [](Param const& r) { return r.is_pointer && !r.is_const; })
                                   : 0;
    auto const written_buffers = std::count_if(task->buffers.begin(), task->buffers.end(),
                                               [](BufferSpec const& b) { return is_compared(b.role); });
    // Likewise one that reads more buffers than the task can give it, or fewer than the task's inputs (the
    // bodies' masses in an array of their own, or in the w of each body).
    // (a role the strategy updates reads too: a task's own inout buffer, or an input it starts from)
    auto const read_roles =
        contract ? std::count_if(
                       contract->params.begin(), contract->params.end(),
                       [&](Param const& r) {
                         return r.is_pointer &&
                                (r.is_const || std::find(strategy.updates.begin(), strategy.updates.end(),
                                                         r.name) != strategy.updates.end());
                       })
                 : 0;
    auto const count_role = [&](Role role) {
      return std::count_if(task->buffers.begin(), task->buffers.end(),
                           [&](BufferSpec const& b) { return b.role == role; });
    };
    bool const reads_other_buffers = read_roles > count_role(Role::input) + count_role(Role::inout) ||
                                     read_roles < count_role(Role::input);
    // Nor one that needs more floating-point scalars than the task passes or pins (attention with the
    // caller's softmax scale, for a task whose scale is 1/sqrt(D)), or has fewer than the task's that its
    // size cases vary (the caller's scale, for the attention that has 1/sqrt(D) built in).
    auto const float_roles = contract ? std::count_if(contract->params.begin(), contract->params.end(),
                                                      [&](Param const& r) {
                                                        return r.is_scalar() && is_floating(r.dtype) &&
                                                               !strategy.defaults.contains(r.name) &&
                                                               !task->binding.contains(r.name);
                                                      })
                                      : 0;
    auto const all_float_roles =
        contract ? std::count_if(contract->params.begin(), contract->params.end(),
                                 [](Param const& r) { return r.is_scalar() && is_floating(r.dtype); })
                 : 0;
    auto const float_scalars =
        std::count_if(task->signature.params.begin(), task->signature.params.end(),
                      [](Param const& p) { return p.is_scalar() && is_floating(p.dtype); });
    auto const varying_scalars =
        std::count_if(task->signature.params.begin(), task->signature.params.end(), [&](Param const& p) {
          return p.is_scalar() && is_floating(p.dtype) &&
                 std::any_of(task->sizes.begin(), task->sizes.end(), [&](SizeCase const& size) {
                   return size.values.at(p.name) != task->sizes.front().values.at(p.name);
                 });
        });
    // Nor one whose params the task does not give (the integrand of the user's own, for a task that
    // integrates the family's fixed function).
    bool const params_given =
        std::all_of(strategy.params.begin(), strategy.params.end(),
                    [&](std::string const& k) { return task->strategy_params.contains(k); });
    if (c.other_variants.contains(strategy.name)) {
      EXPECT_TRUE(a.applies) << strategy.name
                             << " is listed in other_variants but does not bind: " << a.reason;
      continue;
    }
    if (!params_given || !element_supported || !indices_present ||
        (!strategy.arch.empty() && strategy.min_arch != 90) || written_roles != written_buffers ||
        reads_other_buffers || float_roles > float_scalars || all_float_roles < varying_scalars)
      continue;
    // A contract without a role the expected binding names is another variant of the family (the plain
    // attention for a cross-attention task).
    if (contract && std::any_of(expected_roles.begin(), expected_roles.end(), [&](std::string const& role) {
          return std::none_of(contract->params.begin(), contract->params.end(),
                              [&](Param const& r) { return r.name == role; });
        }))
      continue;
    ++of_family;
    ASSERT_TRUE(a.applies) << strategy.name << " does not apply to " << c.dir.filename() << ": " << a.reason;
    // The expected binding names the roles of the variant it was written for; a contract with more roles
    // (cross-attention's S_kv, for a self-attention task) binds them too, and is right when it agrees on
    // the named ones.
    auto const at = std::find_if(a.bindings.begin(), a.bindings.end(), [&](StrategyBinding const& b) {
      auto const have = role_pairs(b.describe());
      auto const want = role_pairs(c.binding);
      return std::includes(have.begin(), have.end(), want.begin(), want.end());
    });
    std::string enumerated;
    for (StrategyBinding const& b : a.bindings) enumerated += "\n  " + b.describe();
    ASSERT_NE(at, a.bindings.end()) << strategy.name << ": " << c.binding << " is not among" << enumerated;
    EXPECT_LT(static_cast<std::size_t>(at - a.bindings.begin()), kProbeBudget)
        << strategy.name << ": " << c.binding << " ranks too low among" << enumerated;
    bool const copies = std::any_of(at->roles.begin(), at->roles.end(), [](RoleBinding const& r) {
      return r.copied || r.accumulated || !r.offset.empty() || !r.seeded_from.empty();  // host code
    });
    if (compile_every ||
        (adapted.empty() &&
         (strategy.template_text.find("kopt:launch") != std::string::npos || copies || has_scratch)))
      adapted.emplace_back(&strategy, *at);
  }
  EXPECT_GT(of_family, 0u) << "no strategy of " << c.family << " for this element type";
  if (task->family.empty()) {
    EXPECT_TRUE(offered.contains(c.family)) << "family inference missed " << c.family;
  }
  // Each adapter compiles: the first valid configuration, as the evaluator builds it (NVRTC or nvcc).
  for (auto const& [strategy, right] : adapted) {
    auto text = instantiate_strategy(library(), *strategy, *task, 90, &right);
    ASSERT_TRUE(text) << text.error().message;
    auto space = TuningSpace::parse(*text, strategy->name + ".cu");
    ASSERT_TRUE(space) << space.error().message;
    auto enumeration = space->enumerate(tuning_rules_for(*task));
    ASSERT_TRUE(enumeration) << enumeration.error().message;
    ASSERT_FALSE(enumeration->valid.empty()) << strategy->name << ": no valid configuration";
    auto candidate = materialise(*space, enumeration->valid.front(), *text, *task);
    ASSERT_TRUE(candidate) << candidate.error().message;
    auto outcome =
        test::compile_as_evaluated(*task, candidate->name + ".cu", candidate->source, candidate->flags);
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_TRUE(outcome->ok) << strategy->name << " under " << right.describe() << ":\n"
                             << outcome->diagnostics << "\n"
                             << candidate->source;
    // A launcher-mode strategy's launches follow the caller's stream.
    if (has_stream && !is_kernel_template(strategy->template_text)) {
      EXPECT_NE(candidate->source.find("LaunchStreamScope const kopt_stream_scope("), std::string::npos)
          << strategy->name;
    }
  }
}

std::string case_name(::testing::TestParamInfo<ForeignCase> const& param) {
  std::string name = param.param.dir.filename().string();
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) == 0; },
      '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Foreign, ForeignSignature, ::testing::ValuesIn(foreign_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ForeignSignature);

}  // namespace foreign_signatures_test
}  // namespace kopt
