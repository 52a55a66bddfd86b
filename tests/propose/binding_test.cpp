// Binding a strategy's contract to a task written another way (docs/strategies.md, "Binding"): roles filled
// by type, lengths that prune, sizes read off buffers, the task's [binding], scalars renamed in ops, and
// the adapters (kernel mode: `args=` on the launch line; launcher mode: a launcher that calls the
// strategy's).
#include <gtest/gtest.h>

#include <algorithm>

#include "eval/artifact_requests.hpp"
#include "kopt/compile.hpp"
#include "kopt/propose.hpp"
#include "propose/contract.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace binding_test {

using test::write_file;

std::string const kMap2 = R"kopt(// kopt:knob BLOCK = [256]
// kopt:launch grid=(ceil_div({{ARG3}}, BLOCK)) block=(BLOCK) kernel={{ENTRY}}
extern "C" __global__ void {{ENTRY}}({{T}}* c, const {{T}}* a, const {{T}}* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto f = [](float a, float b) { return {{op}}; };
  if (i < n) c[i] = f(a[i], b[i]);
}
)kopt";

std::string const kMap1s = R"kopt(// kopt:knob BLOCK = [256]
// kopt:launch grid=(ceil_div({{ARG3}}, BLOCK)) block=(BLOCK) kernel={{ENTRY}}
extern "C" __global__ void {{ENTRY}}({{T}}* y, const {{T}}* x_in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float x = x_in[i]; y[i] = {{op}}; }
}
)kopt";

std::string const kMap1ss = R"kopt(// kopt:knob BLOCK = [256]
// kopt:launch grid=(ceil_div({{ARG4}}, BLOCK)) block=(BLOCK) kernel={{ENTRY}}
extern "C" __global__ void {{ENTRY}}({{T}}* y, const {{T}}* x_in, float s, float t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float x = x_in[i]; y[i] = {{op}}; }
}
)kopt";

std::string const kGemv = R"kopt(// kopt:launch grid=({{ARG3}}) block=(32) kernel={{ENTRY}}
extern "C" __global__ void {{ENTRY}}({{T}}* y, const {{T}}* A, const {{T}}* x, int M, int N) {
  if (threadIdx.x == 0) { float s = 0; for (int j = 0; j < N; ++j) s += A[blockIdx.x * N + j] * x[j]; y[blockIdx.x] = s; }
}
)kopt";

std::string const kLauncherMap2 =
    R"kopt(__global__ void map2_kernel({{T}}* c, const {{T}}* a, const {{T}}* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto f = [](float a, float b) { return {{op}}; };
  if (i < n) c[i] = f(a[i], b[i]);
}
extern "C" void {{ENTRY}}({{T}}* c, const {{T}}* a, const {{T}}* b, int n) {
  map2_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);
}
)kopt";

std::string const kManifest = R"kopt([[strategy]]
name = "scale_rows"
families = ["scaled_copy"]
template = "map1s.cu"
signature = "void (T* y, const T* x, float s, int rows, int cols)"
lengths = { y = "rows*cols", x = "rows*cols" }
defaults = { s = "1.0" }
description = "x"
applies_when = "y"

[[strategy]]
name = "map2"
families = ["elementwise"]
template = "map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
lengths = { c = "n", a = "n", b = "n" }
in_place = { c = "a" }
params = ["op"]
description = "x"
applies_when = "y"

[[strategy]]
name = "map1s"
families = ["scaled_copy"]
template = "map1s.cu"
signature = "void (T* y, const T* x, float s, int n)"
lengths = { y = "n", x = "n" }
params = ["op"]
description = "x"
applies_when = "y"

[[strategy]]
name = "map1ss"
families = ["two_scalar_map"]
template = "map1ss.cu"
signature = "void (T* y, const T* x, float s, float t, int n)"
lengths = { y = "n", x = "n" }
params = ["op"]
description = "x"
applies_when = "y"

[[strategy]]
name = "axpy_in_place"
families = ["axpy"]
template = "map1s.cu"
signature = "void (T* y, const T* x, float s, int n)"
updates = ["y"]
lengths = { y = "n", x = "n" }
params = ["op"]
description = "x"
applies_when = "y"

[[strategy]]
name = "gemv"
families = ["gemv"]
template = "gemv.cu"
signature = "void (T* y, const T* A, const T* x, int M, int N)"
lengths = { y = "M", A = "M*N", x = "N" }
description = "x"
applies_when = "y"

[[strategy]]
name = "launcher_map2"
families = ["elementwise"]
template = "launcher_map2.cu"
signature = "void (T* c, const T* a, const T* b, int n)"
lengths = { c = "n", a = "n", b = "n" }
params = ["op"]
description = "x"
applies_when = "y"
)kopt";

struct Binding : ::testing::Test {
  void SetUp() override {
    write_file(dir.path() / "lib" / "common" / "strategy.cuh", "// common header\n");
    write_file(dir.path() / "lib" / "maps" / "map2.cu", kMap2);
    write_file(dir.path() / "lib" / "maps" / "map1s.cu", kMap1s);
    write_file(dir.path() / "lib" / "maps" / "map1ss.cu", kMap1ss);
    write_file(dir.path() / "lib" / "maps" / "gemv.cu", kGemv);
    write_file(dir.path() / "lib" / "maps" / "launcher_map2.cu", kLauncherMap2);
    write_file(dir.path() / "lib" / "maps" / "strategies.toml", kManifest);
    write_file(dir.path() / "task" / "reference.cu", "\n");
    auto loaded = load_strategy_library(dir.path() / "lib");
    ASSERT_TRUE(loaded) << loaded.error().message;
    library = *loaded;
  }

  TaskSpec task(std::string const& toml) {
    auto parsed = parse_task(toml, dir.path() / "task" / "task.toml", dir.path() / "task");
    EXPECT_TRUE(parsed) << parsed.error().message;
    return parsed ? *parsed : TaskSpec{};
  }

  std::vector<std::string> described(std::string const& strategy, TaskSpec const& t) {
    std::vector<std::string> out;
    auto const a = check_applicability(*library.find(strategy), t, 90);
    EXPECT_TRUE(a.applies) << a.reason;
    for (StrategyBinding const& b : a.bindings) out.push_back(b.describe());
    return out;
  }

  test::TempDir dir;
  StrategyLibrary library;
};

std::string const kReordered = R"kopt(name = "vadd"
description = "z = x + y, inputs first, a 64-bit length"
[entry]
signature = 'extern "C" void vadd(const float* x, const float* y, float* z, long long count)'
[buffers.x]
length = "count"
[buffers.y]
length = "count"
[buffers.z]
length = "count"
[[sizes]]
name = "small"
count = 1000
[reference]
source = "reference.cu"
[strategy_params]
op = "a + b"
)kopt";

TEST_F(Binding, RolesAreFilledByTypeAndRankedByOrderWithTheTaskLeftAsItIs) {
  TaskSpec const t = task(kReordered);
  EXPECT_EQ(described("map2", t),
            (std::vector<std::string>{"c=z, a=x, b=y, n=count", "c=z, a=y, b=x, n=count"}));
  auto const a = check_applicability(*library.find("map2"), t, 90);
  EXPECT_FALSE(a.bindings.front().identity);
  EXPECT_TRUE(a.family_inferred);
  // Not every contract binds: map1s's float role has no float scalar to take.
  auto const map1s = check_applicability(*library.find("map1s"), t, 90);
  EXPECT_FALSE(map1s.applies);
  EXPECT_NE(map1s.reason.find("no parameter of the task fits the role 's' (float)"), std::string::npos)
      << map1s.reason;
}

TEST_F(Binding, AKernelModeAdapterPassesTheTasksParametersInTheContractsOrder) {
  TaskSpec const t = task(kReordered);
  auto const a = check_applicability(*library.find("map2"), t, 90);
  ASSERT_TRUE(a.applies) << a.reason;
  auto text = instantiate_strategy(library, *library.find("map2"), t, 90, &a.bindings[1]);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("// kopt binding: c=z, a=y, b=x, n=count\n"), std::string::npos) << *text;
  EXPECT_NE(
      text->find("grid=(ceil_div(count, BLOCK)) block=(BLOCK) kernel=vadd args=(z, y, x, i32(count))\n"),
      std::string::npos)
      << *text;
  // The evaluator reads the same arguments: the long long count goes to the kernel as an int.
  CandidateSource source;
  source.name = "map2.cu";
  source.source = *text;
  CandidatePlan const plan = plan_candidate(t, source, std::nullopt);
  ASSERT_TRUE(plan.request) << plan.failure;
  ASSERT_TRUE(plan.launch);
  ASSERT_EQ(plan.launch->args.size(), 4u);
  EXPECT_EQ(plan.launch->args[3].type, DType::i32);
}

// acc += delta: `acc` is read and written (ROLE: its role, inout or another).
std::string const kAddInPlace = R"kopt(name = "add_"
description = "acc += delta"
[entry]
signature = 'extern "C" void add_(float* acc, const float* delta, int n)'
[buffers.acc]
length = "n"
role = "ROLE"
[buffers.delta]
length = "n"
[[sizes]]
name = "small"
n = 1000
[reference]
source = "reference.cu"
[strategy_params]
op = "a + b"
)kopt";

// An in-place update (acc += delta, a residual add_) has one inout buffer where the contract has an output
// and an input: a strategy that declares `in_place = { c = "a" }` binds both roles to it, and the adapter
// passes the buffer twice. A buffer the task only writes, or only reads, is never shared; a strategy that
// does not declare it reads a copy its adapter makes (a kernel-mode one through a generated launcher).
TEST_F(Binding, AnInoutBufferFillsAnOutputAndTheInputDeclaredInPlace) {
  auto const with_role = [&](std::string const& role) {
    std::string text = kAddInPlace;
    text.replace(text.find("ROLE"), 4, role);
    return task(text);
  };
  TaskSpec const inout = with_role("inout");
  // The same pointer where the strategy declares it may be; the other input reading a copy is plausible too.
  EXPECT_EQ(described("map2", inout),
            (std::vector<std::string>{"c=acc, a=acc, b=delta, n=n", "c=acc, a=delta, b=acc (a copy), n=n"}));
  auto text = instantiate_strategy(library, *library.find("map2"), inout, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("kernel=add_ args=(acc, acc, delta, n)\n"), std::string::npos) << *text;

  // A launcher-mode strategy that does not declare in_place reads a copy its adapter makes before the
  // call (the buffer's length over the launcher's sizes gives the bytes).
  EXPECT_EQ(described("launcher_map2", inout),
            (std::vector<std::string>{"c=acc, a=acc (a copy), b=delta, n=n",
                                      "c=acc, a=delta, b=acc (a copy), n=n"}));
  auto adapter = instantiate_strategy(library, *library.find("launcher_map2"), inout, 90);
  ASSERT_TRUE(adapter) << adapter.error().message;
  EXPECT_NE(adapter->find("size_t const kopt_copy_acc_needed = sizeof(*acc) * "
                          "static_cast<size_t>(static_cast<long long>(n));"),
            std::string::npos)
      << *adapter;
  EXPECT_NE(
      adapter->find("cudaMemcpyAsync(kopt_copy_acc, acc, kopt_copy_acc_needed, cudaMemcpyDeviceToDevice, "
                    "cudaStreamPerThread);"),
      std::string::npos)
      << *adapter;
  EXPECT_NE(
      adapter->find(
          "kopt_bound_add_(acc, static_cast<const float*>(kopt_copy_acc), delta, static_cast<int>(n));"),
      std::string::npos)
      << *adapter;
  auto const built = test::compile_as_evaluated(inout, "launcher_map2.cu", *adapter, {});
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_TRUE(built->ok) << built->diagnostics;

  // A kernel-mode strategy cannot be given a copy: map1s (y, x, s, n) declares no in_place.
  TaskSpec const scale = task(R"kopt(name = "scale_"
description = "x *= s"
[entry]
signature = 'extern "C" void scale_(float* x, float s, int n)'
[buffers.x]
length = "n"
role = "inout"
[scalars]
s = 2.0
[[sizes]]
name = "small"
n = 1000
[reference]
source = "reference.cu"
[strategy_params]
op = "s * x"
)kopt");
  // A kernel-mode strategy that does not declare in_place gets a generated launcher that makes the copy:
  // map1s (y, x, s, n) reads x's copy and writes x.
  auto const kernel_mode = check_applicability(*library.find("map1s"), scale, 90);
  ASSERT_TRUE(kernel_mode.applies) << kernel_mode.reason;
  EXPECT_EQ(kernel_mode.bindings.front().describe(), "y=x, x=x (a copy), s=s, n=n");
  auto copying = instantiate_strategy(library, *library.find("map1s"), scale, 90);
  ASSERT_TRUE(copying) << copying.error().message;
  EXPECT_EQ(detect_mode(*copying, "scale_"), CandidateMode::launcher) << *copying;
  EXPECT_NE(copying->find("kopt_launch_scale_(x, s, n, static_cast<const float*>(kopt_copy_x));"),
            std::string::npos)
      << *copying;
  auto const configuration = test::first_configuration(scale, *copying);
  ASSERT_TRUE(configuration) << configuration.error().message;
  auto const copying_built = test::compile_as_evaluated(scale, "map1s.cu", configuration->source, {});
  ASSERT_TRUE(copying_built) << copying_built.error().message;
  EXPECT_TRUE(copying_built->ok) << copying_built->diagnostics << *copying;

  // An output the task does not read is not an input of the strategy.
  auto const output = check_applicability(*library.find("map2"), with_role("output"), 90);
  EXPECT_FALSE(output.applies) << output.bindings.front().describe();
}

// y += A x: an output the task also reads may be added into rather than overwritten. Both are enumerated
// for the same assignment, the overwrite first, and verification decides even where the first is the
// contract itself; the adapter makes the strategy write a buffer of its own and adds it into y. A buffer
// whose length the launcher cannot compute (a size case's variable) gets no such binding.
TEST_F(Binding, AnOutputTheTaskAddsIntoIsEnumeratedBesideTheOverwriteAndVerified) {
  std::string const text = R"kopt(name = "gemv_add"
description = "y += A x"
[entry]
signature = 'extern "C" void gemv_add(float* y, const float* A, const float* x, int M, int N)'
[buffers.y]
length = "LENGTH"
role = "inout"
[buffers.A]
length = "M*N"
[buffers.x]
length = "N"
[[sizes]]
name = "small"
M = 300
N = 200
variables = { rows = 300 }
[reference]
source = "reference.cu"
)kopt";
  auto const with_length = [&](std::string const& length) {
    std::string t = text;
    t.replace(t.find("LENGTH"), 6, length);
    return task(t);
  };
  TaskSpec const add = with_length("M");
  EXPECT_EQ(described("gemv", add),
            (std::vector<std::string>{"y=y, A=A, x=x, M=M, N=N", "y=y (added into), A=A, x=x, M=M, N=N"}));
  auto const a = check_applicability(*library.find("gemv"), add, 90);
  ASSERT_TRUE(a.applies);
  EXPECT_TRUE(a.bindings.front().identity);
  EXPECT_TRUE(needs_verification(a));  // the identity alone cannot say whether y is added into

  auto adapter = instantiate_strategy(library, *library.find("gemv"), add, 90, &a.bindings[1]);
  ASSERT_TRUE(adapter) << adapter.error().message;
  EXPECT_EQ(detect_mode(*adapter, "gemv_add"), CandidateMode::launcher) << *adapter;
  EXPECT_NE(adapter->find("kopt_launch_gemv_add(static_cast<float*>(kopt_sum_y), A, x, M, N);"),
            std::string::npos)
      << *adapter;
  EXPECT_NE(adapter->find("kopt_add_into_y<<<"), std::string::npos) << *adapter;
  auto const built = test::compile_as_evaluated(add, "gemv_add.cu", *adapter, {});
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_TRUE(built->ok) << built->diagnostics << *adapter;

  // y's length a variable of the size case: the adapter could not size its buffer.
  EXPECT_EQ(described("gemv", with_length("rows")), (std::vector<std::string>{"y=y, A=A, x=x, M=M, N=N"}));
}

// A float scalar the task passes after its sizes, where the contract has it before them, is not a
// reordering: the task's own scalar ranks above the role's default (which would leave it unused).
// Outside text (issue #23): 1 MiB runs of what the patterns repeat over, in a template given with
// --strategies (between `//` and `kopt:launch`, after the launch line, between __global__ and {{ENTRY}}) and
// in a task (a buffer's length). std::regex recursed once per character and overflowed the stack; RE2 reads
// them in linear time and the binding and instantiation are the usual ones.
TEST_F(Binding, MegabyteRunsInATemplateAndATaskAreReadNotACrash) {
  std::string const spaces(std::size_t{1} << 20, ' ');
  EXPECT_TRUE(is_kernel_template("//" + spaces + "kopt:launch grid=(1) block=(1)\n"));
  EXPECT_TRUE(
      is_kernel_template("extern \"C\" __global__" + spaces + "void {{ENTRY}}" + spaces + "(float* x) {}"));
  EXPECT_FALSE(is_kernel_template("__global__" + spaces + "void other(float* x) {}\n"));

  std::string map2 = kMap2;
  map2.replace(map2.find("// kopt:launch"), 14, "//" + spaces + "kopt:launch");
  map2.replace(map2.find("kernel={{ENTRY}}"), 16, "kernel={{ENTRY}}" + spaces);
  write_file(dir.path() / "lib" / "maps" / "map2.cu", map2);
  auto loaded = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(loaded) << loaded.error().message.substr(0, 500);
  auto text = instantiate_strategy(*loaded, *loaded->find("map2"), task(kReordered), 90);
  ASSERT_TRUE(text) << text.error().message.substr(0, 500);
  EXPECT_NE(text->find("kernel=vadd" + spaces + " args=(z, x, y, i32(count))\n"), std::string::npos);

  // The length of an inout buffer, which a launcher-mode adapter copies: 1 MiB of spaces after `n`.
  std::string toml = kAddInPlace;
  toml.replace(toml.find("ROLE"), 4, "inout");
  toml.replace(toml.find("length = \"n\""), 12, "length = \"n" + spaces + "\"");
  auto const bindings = described("launcher_map2", task(toml));  // then n=(the length), its own option
  ASSERT_GE(bindings.size(), 2u);
  EXPECT_EQ(bindings[0], "c=acc, a=acc (a copy), b=delta, n=n");
  EXPECT_EQ(bindings[1], "c=acc, a=delta, b=acc (a copy), n=n");
}

TEST_F(Binding, AFloatScalarAfterTheSizesStillOutranksTheDefault) {
  TaskSpec const t = task(R"kopt(name = "scale"
description = "y = epsilon * x over a matrix"
[entry]
signature = 'extern "C" void scale(float* y, const float* x, int rows, int cols, float epsilon)'
[buffers.y]
length = "rows*cols"
[buffers.x]
length = "rows*cols"
[scalars]
epsilon = 0.5
[[sizes]]
name = "small"
rows = 10
cols = 20
[reference]
source = "reference.cu"
)kopt");
  auto const a = check_applicability(*library.find("scale_rows"), t, 90);
  ASSERT_TRUE(a.applies) << a.reason;
  EXPECT_EQ(a.bindings.front().describe(), "y=y, x=x, s=epsilon, rows=rows, cols=cols");
}

// A user's double scalar fills a float role: the kernel-mode adapter rounds it (`f32(alpha)`).
TEST_F(Binding, ADoubleScalarFillsAFloatRoleRoundedByTheAdapter) {
  TaskSpec const t = task(R"kopt(name = "scale"
description = "y = alpha * x"
[entry]
signature = 'extern "C" void scale(float* y, const float* x, double alpha, int n)'
[buffers.y]
length = "n"
[buffers.x]
length = "n"
[scalars]
alpha = 0.5
[[sizes]]
name = "small"
n = 1000
[reference]
source = "reference.cu"
[strategy_params]
op = "alpha * x"
)kopt");
  EXPECT_EQ(described("map1s", t), (std::vector<std::string>{"y=y, x=x, s=alpha, n=n"}));
  auto text = instantiate_strategy(library, *library.find("map1s"), t, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("kernel=scale args=(y, x, f32(alpha), n)"), std::string::npos) << *text;
  CandidateSource source;
  source.name = "map1s.cu";
  source.source = *text;
  CandidatePlan const plan = plan_candidate(t, source, std::nullopt);
  ASSERT_TRUE(plan.request) << plan.failure;
}

TEST_F(Binding, TheIdentityNeedsNoAdapter) {
  TaskSpec const t = task(test::add_task_toml("n") + "[strategy_params]\nop = \"a + b\"\n");
  auto const a = check_applicability(*library.find("map2"), t, 90);
  ASSERT_TRUE(a.applies) << a.reason;
  EXPECT_TRUE(a.bindings.front().identity);
  EXPECT_EQ(a.bindings.front().describe(), "c=c, a=a, b=b, n=n");
  auto text = instantiate_strategy(library, *library.find("map2"), t, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(text->find("args="), std::string::npos) << *text;
  EXPECT_EQ(text->find("kopt binding"), std::string::npos);
}

// A launcher whose types line up with the contract but whose names say the sizes come the other way
// (cols, rows where the contract has rows, cols; the lengths cannot tell: rows*cols either way) is not the
// contract itself: the names rank first, and the strategy is probed, not trusted.
TEST_F(Binding, AnIdentityWhoseNamesContradictItIsNeitherFirstNorTrusted) {
  TaskSpec const t = task(R"kopt(name = "scale"
description = "y = s x over a matrix, sizes as cols, rows"
[entry]
signature = 'extern "C" void scale(float* y, const float* x, float s, int cols, int rows)'
[buffers.y]
length = "rows*cols"
[buffers.x]
length = "rows*cols"
[scalars]
s = 2.0
[[sizes]]
name = "small"
rows = 16
cols = 64
[reference]
source = "reference.cu"
)kopt");
  auto const a = check_applicability(*library.find("scale_rows"), t, 90);
  ASSERT_TRUE(a.applies) << a.reason;
  ASSERT_GE(a.bindings.size(), 2u);
  EXPECT_EQ(a.bindings.front().describe(), "y=y, x=x, s=s, rows=rows, cols=cols");
  EXPECT_FALSE(a.bindings.front().identity);
  auto const positional =
      std::find_if(a.bindings.begin(), a.bindings.end(), [](StrategyBinding const& b) { return b.identity; });
  ASSERT_NE(positional, a.bindings.end());
  EXPECT_EQ(positional->describe(), "y=y, x=x, s=s, rows=cols, cols=rows");
  EXPECT_TRUE(needs_verification(a));
}

// A size read off a buffer's length must be something the adapter can pass: a length over a size case's
// own variable (`cols`, not a launcher parameter) gives no value for the role, where a length over the
// launcher's parameters does.
TEST_F(Binding, ASizeIsReadOffALengthOnlyWhenTheLauncherHasItsParameters) {
  std::string const toml = R"kopt(name = "mv"
description = "y = A x with the row length not passed"
[entry]
signature = 'extern "C" void mv(float* y, const float* A, const float* x, int rows)'
[buffers.y]
length = "rows"
[buffers.A]
length = "rows*COLS"
[buffers.x]
length = "COLS"
[[sizes]]
name = "small"
rows = 16
variables = { cols = 48 }
[reference]
source = "reference.cu"
)kopt";
  std::string variable = toml;
  for (std::size_t at = variable.find("COLS"); at != std::string::npos; at = variable.find("COLS"))
    variable.replace(at, 4, "cols");
  auto const from_variable = check_applicability(*library.find("gemv"), task(variable), 90);
  EXPECT_FALSE(from_variable.applies) << from_variable.bindings.front().describe();

  std::string constant = toml;
  for (std::size_t at = constant.find("COLS"); at != std::string::npos; at = constant.find("COLS"))
    constant.replace(at, 4, "3*rows");
  auto const from_parameter = check_applicability(*library.find("gemv"), task(constant), 90);
  ASSERT_TRUE(from_parameter.applies) << from_parameter.reason;
  EXPECT_EQ(from_parameter.bindings.front().describe(), "y=y, A=A, x=x, M=rows, N=(3*rows)");
}

TEST_F(Binding, LengthsRejectSwappedSizesOnANonSquareCase) {
  TaskSpec const t = task(R"kopt(name = "mv"
description = "y = A x, as a user wrote it"
family = "gemv"
[entry]
signature = 'extern "C" void mv(const float* A, const float* x, float* y, int rows, int cols)'
[buffers.A]
length = "rows*cols"
[buffers.x]
length = "cols"
[buffers.y]
length = "rows"
[[sizes]]
name = "wide"
rows = 3
cols = 5
[reference]
source = "reference.cu"
)kopt");
  // M and N could each be rows or cols; only one assignment gives every buffer its length.
  EXPECT_EQ(described("gemv", t), std::vector<std::string>{"y=y, A=A, x=x, M=rows, N=cols"});
  TaskSpec no_scalars = task(R"kopt(name = "mv"
description = "y = A x with the sizes fixed in the kernel"
family = "gemv"
[entry]
signature = 'extern "C" void mv(float* y, const float* A, const float* x)'
[buffers.A]
length = "4096*512"
[buffers.x]
length = "512"
[buffers.y]
length = "4096"
[[sizes]]
name = "fixed"
[reference]
source = "reference.cu"
)kopt");
  // With no size parameter at all, each size is read off the length of the buffer it measures.
  EXPECT_EQ(described("gemv", no_scalars), std::vector<std::string>{"y=y, A=A, x=x, M=(4096), N=(512)"});
}

// Square size cases cannot tell M from N; the names can: rows is M and cols is N, whatever their order.
TEST_F(Binding, MatrixExtentNamesRankSizesPassedInAnotherOrder) {
  TaskSpec const t = task(R"kopt(name = "mv"
description = "y = A x, the columns passed first"
family = "gemv"
[entry]
signature = 'extern "C" void mv(const float* A, const float* x, float* y, int width, int height)'
[buffers.A]
length = "height*width"
[buffers.x]
length = "width"
[buffers.y]
length = "height"
[[sizes]]
name = "square"
height = 64
width = 64
[reference]
source = "reference.cu"
)kopt");
  auto const bindings = described("gemv", t);
  ASSERT_FALSE(bindings.empty());
  EXPECT_EQ(bindings.front(), "y=y, A=A, x=x, M=height, N=width");
  EXPECT_NE(std::find(bindings.begin(), bindings.end(), "y=y, A=A, x=x, M=width, N=height"), bindings.end())
      << "the square case alone cannot rule out the swap";
}

TEST_F(Binding, TheTasksBindingTablePinsARoleAndOpsNameScalarsByTheirRoles) {
  TaskSpec const pinned = task(R"kopt(name = "leaky"
description = "leaky ReLU with its slope fixed"
[entry]
signature = 'extern "C" void leaky(float* out, const float* in, int n)'
[buffers.out]
length = "n"
[buffers.in]
length = "n"
[[sizes]]
name = "small"
n = 1000
[reference]
source = "reference.cu"
[strategy_params]
op = "x > 0.0f ? x : s * x"
[binding]
s = 0.01
)kopt");
  EXPECT_EQ(described("map1s", pinned), std::vector<std::string>{"y=out, x=in, s=(0.01), n=n"});
  auto text = instantiate_strategy(library, *library.find("map1s"), pinned, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("args=(out, in, f32(0.01), n)"), std::string::npos) << *text;

  TaskSpec const elu = task(R"kopt(name = "elu"
description = "ELU with alpha a parameter"
[entry]
signature = 'extern "C" void elu(float* out, const float* in, float alpha, int n)'
[buffers.out]
length = "n"
[buffers.in]
length = "n"
[[sizes]]
name = "small"
n = 1000
alpha = 1.0
[reference]
source = "reference.cu"
[strategy_params]
op = "x > 0.0f ? x : alpha * (expf(x) - 1.0f)"
)kopt");
  EXPECT_EQ(described("map1s", elu), std::vector<std::string>{"y=out, x=in, s=alpha, n=n"});
  auto renamed = instantiate_strategy(library, *library.find("map1s"), elu, 90);
  ASSERT_TRUE(renamed) << renamed.error().message;
  EXPECT_NE(renamed->find("y[i] = x > 0.0f ? x : s * (expf(x) - 1.0f);"), std::string::npos) << *renamed;

  // An op that needs two scalars where the contract has room for one does not bind.
  TaskSpec clamp = elu;
  auto const two = parse_signature("void elu(float* out, const float* in, float lo, float hi, int n)");
  ASSERT_TRUE(two);
  clamp.signature = *two;
  clamp.scalars = {{"lo", DType::f32}, {"hi", DType::f32}, {"n", DType::i32}};
  clamp.strategy_params["op"] = "fminf(fmaxf(x, lo), hi)";
  auto const clamped = check_applicability(*library.find("map1s"), clamp, 90);
  EXPECT_FALSE(clamped.applies);
  EXPECT_NE(clamped.reason.find("[strategy_params] op names the task's 'hi', which no role takes"),
            std::string::npos)
      << clamped.reason;

  TaskSpec wrong = pinned;
  wrong.binding["s"] = "in";
  auto const refused = check_applicability(*library.find("map1s"), wrong, 90);
  EXPECT_FALSE(refused.applies);
  EXPECT_NE(refused.reason.find("[binding] s = \"in\" does not fit the role 's' (float)"), std::string::npos)
      << refused.reason;
}

TEST_F(Binding, ALauncherModeAdapterIsALauncherWithTheTasksSignatureAndCompiles) {
  TaskSpec const t = task(kReordered);
  auto text = instantiate_strategy(library, *library.find("launcher_map2"), t, 90);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("extern \"C\" void kopt_bound_vadd(float* c, const float* a, const float* b, int n)"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("extern \"C\" void vadd(const float* x, const float* y, float* z, long long count) {\n"
                       "  kopt_bound_vadd(z, x, y, static_cast<int>(count));\n}"),
            std::string::npos)
      << *text;
  CandidateSource source;
  source.name = "launcher_map2.cu";
  source.source = *text;
  EXPECT_EQ(plan_candidate(t, source, std::nullopt).mode, CandidateMode::launcher);
  auto outcome = test::compile_as_evaluated(t, "launcher_map2.cu", *text);
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
}

TEST_F(Binding, ARoleNoParameterFitsSaysSo) {
  TaskSpec const t = task(R"kopt(name = "mv"
description = "a vector sum with only one input"
family = "elementwise"
[entry]
signature = 'extern "C" void half(float* c, const float* a, int n)'
[buffers.c]
length = "n"
[buffers.a]
length = "n"
[[sizes]]
name = "small"
n = 10
[reference]
source = "reference.cu"
[strategy_params]
op = "a + b"
)kopt");
  auto const a = check_applicability(*library.find("map2"), t, 90);
  EXPECT_FALSE(a.applies);
  EXPECT_NE(a.reason.find("its pointer roles would need the same buffer of the task twice"),
            std::string::npos)
      << a.reason;
}

// sum(out, values, start, n) over a buffer of start + n values: the contract's input is the slice
// values + start, read off the lengths (one of the launcher's integers is exactly the difference on every
// size case). The launcher adapter passes the slice; a kernel-mode strategy gets a generated launcher
// whose extra argument is the slice (kopt's args= name parameters only). Both compile.
std::string const kWindow = R"kopt(name = "shift_window"
description = "y[i] = x[start + i] * s for i < n"
[entry]
signature = 'extern "C" void shift_window(float* y, const float* x, float s, int start, int n)'
[buffers.y]
length = "n"
[buffers.x]
length = "start + n"
[scalars]
s = 0.5
[[sizes]]
name = "odd"
start = 7
n = 1001
[[sizes]]
name = "small"
start = 64
n = 4096
[reference]
source = "reference.cu"
[strategy_params]
op = "x * s"
)kopt";

TEST_F(Binding, AnInputRoleTakesASliceWhoseOffsetTheLengthsGive) {
  TaskSpec const t = task(kWindow);
  EXPECT_EQ(described("map1s", t).front(), "y=y, x=x + start, s=s, n=n");
  auto const a = check_applicability(*library.find("map1s"), t, 90);
  ASSERT_TRUE(a.applies) << a.reason;
  EXPECT_FALSE(a.bindings.front().identity);
  // Kernel mode: host code, the slice one more parameter of the generated launcher.
  auto text = instantiate_strategy(library, *library.find("map1s"), t, 90, &a.bindings.front());
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("args=(y, kopt_slice_x, s, n)"), std::string::npos) << *text;
  EXPECT_NE(text->find("x + (static_cast<long long>(start))"), std::string::npos) << *text;
  auto const configuration = test::first_configuration(t, *text);
  ASSERT_TRUE(configuration) << configuration.error().message;
  auto const built = test::compile_as_evaluated(t, "map1s.cu", configuration->source, {});
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_TRUE(built->ok) << built->diagnostics << "\n" << *text;

  // A buffer as long as the role covers is taken whole, never sliced by a scalar that happens to be 0.
  std::string whole = kWindow;
  whole.replace(whole.find("\"start + n\""), 11, "\"n\"");
  for (std::string const& d : described("map1s", task(whole)))
    EXPECT_EQ(d.find(" + "), std::string::npos) << d;
}

TEST_F(Binding, ASliceNamedInTheBindingTableMustLieWithinItsBufferAndIsReadOnly) {
  std::string const pinned = R"kopt(name = "window_sum"
description = "z[i] = a[off + i] + b[i] for i < len; a holds total values"
[entry]
signature = 'extern "C" void window_sum(float* z, const float* a, const float* b, int total, int off, int len)'
[buffers.z]
length = "len"
[buffers.a]
length = "total"
[buffers.b]
length = "len"
[[sizes]]
name = "small"
total = 5000
off = 100
len = 4096
[reference]
source = "reference.cu"
[strategy_params]
op = "a + b"
[binding]
a = "a + off"
n = "len"
)kopt";
  TaskSpec const t = task(pinned);
  EXPECT_EQ(described("launcher_map2", t).front(), "c=z, a=a + off, b=b, n=len");
  auto adapter = instantiate_strategy(library, *library.find("launcher_map2"), t, 90);
  ASSERT_TRUE(adapter) << adapter.error().message;
  EXPECT_NE(
      adapter->find("kopt_bound_window_sum(z, a + (static_cast<long long>(off)), b, static_cast<int>(len))"),
      std::string::npos)
      << *adapter;
  auto const built = test::compile_as_evaluated(t, "launcher_map2.cu", *adapter, {});
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_TRUE(built->ok) << built->diagnostics;

  // Past the end of the buffer on a size case: no binding.
  std::string beyond = pinned;
  beyond.replace(beyond.find("off = 100"), 9, "off = 999");
  auto const past = check_applicability(*library.find("launcher_map2"), task(beyond), 90);
  EXPECT_FALSE(past.applies);
  EXPECT_NE(past.reason.find("covers 4096 elements from 999 where the task's 'a' has 5000"),
            std::string::npos)
      << past.reason;
  // An output role is never given a slice.
  std::string written = pinned;
  written.replace(written.find("a = \"a + off\""), 13, "c = \"z + off\"");
  auto const out = check_applicability(*library.find("launcher_map2"), task(written), 90);
  EXPECT_FALSE(out.applies);
  EXPECT_NE(out.reason.find("[binding] c = \"z + off\" does not fit the role 'c'"), std::string::npos)
      << out.reason;
}

// A cufftComplex or float2 buffer fills a float role: its length counts complex values, the role's floats.
TEST_F(Binding, VectorElementsFillAScalarRoleWithLanesTimesTheirLength) {
  TaskSpec const t = task(R"kopt(name = "cadd"
description = "z = x + y on complex values"
[entry]
signature = 'extern "C" void cadd(const cufftComplex* x, const float2* y, cufftComplex* z, int count)'
[buffers.x]
length = "count"
[buffers.y]
length = "count"
[buffers.z]
length = "count"
[[sizes]]
name = "small"
count = 1000
[reference]
source = "reference.cu"
[strategy_params]
op = "a + b"
)kopt");
  ASSERT_EQ(t.buffers.size(), 3u);
  EXPECT_EQ(t.buffers[0].lanes, 2);
  EXPECT_EQ(described("launcher_map2", t).front(), "c=z, a=x, b=y, n=(2*(count))");
  auto adapter = instantiate_strategy(library, *library.find("launcher_map2"), t, 90);
  ASSERT_TRUE(adapter) << adapter.error().message;
  EXPECT_NE(adapter->find("#include <cufft.h>"), std::string::npos) << *adapter;
  EXPECT_NE(adapter->find("kopt_bound_cadd(kopt_any_pointer{z}, kopt_any_pointer{x}, kopt_any_pointer{y}, "
                          "static_cast<int>((2*(count))))"),
            std::string::npos)
      << *adapter;
  auto const built = test::compile_as_evaluated(t, "launcher_map2.cu", *adapter, {});
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_TRUE(built->ok) << built->diagnostics;
  // A kernel-mode strategy passes the pointers as they are (kopt launches the kernel with their values).
  auto kernel = instantiate_strategy(library, *library.find("map2"), t, 90);
  ASSERT_TRUE(kernel) << kernel.error().message;
  EXPECT_NE(kernel->find("args=(z, x, y, i32(2*(count)))"), std::string::npos) << *kernel;
}

// A float scalar no role takes is a coefficient the strategy has built in: kept when the task gives it one
// value (verification decides), rejected when its size cases give it several.
TEST_F(Binding, AFloatScalarTheSizesVaryMustBeTakenByARole) {
  std::string const text = R"kopt(name = "weighted_add"
description = "c = a + b, w passed and (here) unused"
[entry]
signature = 'extern "C" void weighted_add(float* c, const float* a, const float* b, int n, float w)'
[buffers.c]
length = "n"
[buffers.a]
length = "n"
[buffers.b]
length = "n"
[[sizes]]
name = "small"
n = 1000
w = 1.0
[[sizes]]
name = "large"
n = 4000
w = W2
[reference]
source = "reference.cu"
[strategy_params]
op = "a + b"
)kopt";
  auto const with_second = [&](std::string const& value) {
    std::string t = text;
    t.replace(t.find("W2"), 2, value);
    return task(t);
  };
  EXPECT_TRUE(check_applicability(*library.find("map2"), with_second("1.0"), 90).applies);
  auto const varied = check_applicability(*library.find("map2"), with_second("0.5"), 90);
  EXPECT_FALSE(varied.applies);
  EXPECT_NE(
      varied.reason.find("no role takes the task's 'w' (float), which its size cases set to several values"),
      std::string::npos)
      << varied.reason;
}

// A float scalar named as a float role is that role's: another scalar never takes the role while it sits
// unused (a G that varies taking an n-body's eps2 role with eps2 left out).
TEST_F(Binding, AFloatScalarNamedAsARoleIsTheOnlyOneThatRoleTakes) {
  std::string const text = R"kopt(name = "scale"
description = "y = g * s * x over a matrix"
[entry]
signature = 'extern "C" void scale(float* y, const float* x, int rows, int cols, float g, float s)'
[buffers.y]
length = "rows*cols"
[buffers.x]
length = "rows*cols"
[scalars]
s = 0.5
[[sizes]]
name = "small"
rows = 10
cols = 20
g = 1.5
[[sizes]]
name = "large"
rows = 100
cols = 20
g = G2
[reference]
source = "reference.cu"
)kopt";
  auto const with_second = [&](std::string const& value) {
    std::string t = text;
    t.replace(t.find("G2"), 2, value);
    return task(t);
  };
  auto const fixed = check_applicability(*library.find("scale_rows"), with_second("1.5"), 90);
  ASSERT_TRUE(fixed.applies) << fixed.reason;
  for (StrategyBinding const& b : fixed.bindings)
    EXPECT_NE(b.describe().find("s=s"), std::string::npos) << b.describe();
  auto const varied = check_applicability(*library.find("scale_rows"), with_second("3.0"), 90);
  EXPECT_FALSE(varied.applies);
  EXPECT_NE(varied.reason.find("no role takes the task's 'g' (float)"), std::string::npos) << varied.reason;
}

// One floating-point scalar fills one floating-point role: a heat step's r is not both weights of a
// weighted stencil. Two scalars fill two roles in either order, never one of them twice.
TEST_F(Binding, AFloatScalarFillsOneFloatRoleAndTooFewAreNamed) {
  auto const with_scalars = [&](std::string const& params, std::string const& values) {
    return task(R"kopt(name = "affine"
description = "y = p * x + q"
[entry]
signature = 'extern "C" void affine(float* y, const float* x, int n)kopt" +
                params + R"kopt()'
[buffers.y]
length = "n"
[buffers.x]
length = "n"
[[sizes]]
name = "small"
n = 1000
)kopt" + values +
                R"kopt(
[reference]
source = "reference.cu"
[strategy_params]
op = "s * x + t"
)kopt");
  };
  auto const one = check_applicability(*library.find("map1ss"), with_scalars(", float p", "p = 2.0"), 90);
  EXPECT_FALSE(one.applies);
  EXPECT_NE(one.reason.find("its floating-point roles s, t need 2 scalars of the task, which has 1 (p)"),
            std::string::npos)
      << one.reason;
  EXPECT_EQ(described("map1ss", with_scalars(", float p, float q", "p = 2.0\nq = 0.5")),
            (std::vector<std::string>{"y=y, x=x, s=p, t=q, n=n", "y=y, x=x, s=q, t=p, n=n"}));
}

// A role read before it is written (`updates`) takes the task's output when an input of the task that no
// role takes has its length: the adapter copies that input into the output first (torch.baddbmm's
// `input` and `out`, cuBLASLt's C and D).
TEST_F(Binding, AnUpdatedRoleTakesAnOutputStartedFromAnUnusedInput) {
  auto const with_y_length = [&](std::string const& length) {
    return task(R"kopt(name = "axpy_out"
description = "out = s * x + y, y left as it is"
[entry]
signature = 'extern "C" void axpy_out(float* out, const float* y, const float* x, float s, int n)'
[buffers.out]
length = "n"
[buffers.y]
length = ")kopt" +
                length + R"kopt("
[buffers.x]
length = "n"
[[sizes]]
name = "small"
n = 1000
s = 2.0
[reference]
source = "reference.cu"
[strategy_params]
op = "s * x + y"
)kopt");
  };
  TaskSpec const t = with_y_length("n");
  EXPECT_EQ(described("axpy_in_place", t),
            (std::vector<std::string>{"y=out (from y), x=x, s=s, n=n", "y=out (from x), x=y, s=s, n=n"}));
  auto const a = check_applicability(*library.find("axpy_in_place"), t, 90);
  auto text = instantiate_strategy(library, *library.find("axpy_in_place"), t, 90, &a.bindings.front());
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->find("cudaMemcpyAsync(out, y, sizeof(*out) * "), std::string::npos) << *text;
  // Without an input of the output's length to start from, it does not bind, and says why.
  auto const none = check_applicability(*library.find("axpy_in_place"), with_y_length("n + 1"), 90);
  EXPECT_FALSE(none.applies);
  EXPECT_NE(none.reason.find("role 'y' reads the task's output 'out' before writing it"), std::string::npos)
      << none.reason;
}

}  // namespace binding_test
}  // namespace kopt
