#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kopt/task.hpp"

namespace kopt {
namespace task_loader_test {

std::filesystem::path data_dir(std::string const& name) {
  return std::filesystem::path(KOPT_SOURCE_DIR) / "tests" / "task" / "data" / name;
}

TaskSpec load_ok(std::string const& name) {
  auto spec = load_task(data_dir(name));
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
  return spec.ok() ? *spec : TaskSpec{};
}

std::string param_string(GeneratorSpec const& gen, std::string const& key) {
  auto it = gen.params.find(key);
  if (it == gen.params.end() || !std::holds_alternative<std::string>(it->second)) return "<missing>";
  return std::get<std::string>(it->second);
}

double param_number(GeneratorSpec const& gen, std::string const& key) {
  auto it = gen.params.find(key);
  if (it == gen.params.end() || !std::holds_alternative<double>(it->second)) return -12345.0;
  return std::get<double>(it->second);
}

TEST(TaskLoader, SoftmaxFullExample) {
  auto spec = load_ok("softmax");
  auto dir = std::filesystem::absolute(data_dir("softmax")).lexically_normal();
  EXPECT_EQ(spec.dir, dir);
  EXPECT_EQ(spec.spec_file, dir / "task.toml");
  EXPECT_EQ(spec.name, "softmax_f32");
  EXPECT_EQ(spec.family, "row_softmax");
  EXPECT_NE(spec.description.find("Row-wise softmax"), std::string::npos);
  EXPECT_EQ(spec.trials, 3);
  EXPECT_EQ(spec.signature.function, "softmax");

  ASSERT_EQ(spec.buffers.size(), 2u);
  EXPECT_EQ(spec.buffers[0].name, "out");  // signature order
  EXPECT_EQ(spec.buffers[0].role, Role::output);
  EXPECT_TRUE(spec.buffers[0].generators.empty());
  EXPECT_EQ(spec.buffers[1].name, "in");
  EXPECT_EQ(spec.buffers[1].role, Role::input);
  EXPECT_EQ(spec.buffers[1].dtype, DType::f32);
  EXPECT_EQ(spec.buffers[1].length.text(), "N*C");
  ASSERT_EQ(spec.buffers[1].generators.size(), 2u);
  EXPECT_EQ(spec.buffers[1].generators[0].kind, "uniform");
  EXPECT_EQ(param_number(spec.buffers[1].generators[0], "low"), -4.0);
  EXPECT_EQ(param_number(spec.buffers[1].generators[0], "high"), 4.0);
  EXPECT_EQ(spec.buffers[1].generators[1].kind, "normal");
  EXPECT_EQ(param_number(spec.buffers[1].generators[1], "std"), 3.0);
  EXPECT_EQ(spec.buffers[1].generators[1].params.count("kind"), 0u);

  ASSERT_EQ(spec.scalars.size(), 2u);
  EXPECT_EQ(spec.scalars[0].name, "N");
  EXPECT_EQ(spec.scalars[1].dtype, DType::i32);

  ASSERT_EQ(spec.sizes.size(), 2u);
  EXPECT_EQ(spec.sizes[0].name, "small");
  EXPECT_FALSE(spec.sizes[0].verify_only);
  EXPECT_TRUE(spec.sizes[1].verify_only);
  auto env = spec.env_for(spec.sizes[1]);
  EXPECT_EQ(env.at("N"), 37);
  EXPECT_EQ(env.at("C"), 1001);
  EXPECT_EQ(*spec.buffers[0].length.evaluate(env), 37 * 1001);

  EXPECT_EQ(spec.tolerance_for(DType::f32).rtol, 1e-4);
  EXPECT_EQ(spec.tolerance_for(DType::f32).atol, 1e-5);
  EXPECT_EQ(spec.tolerance_for(DType::f64).atol, 1e-10);  // default

  EXPECT_EQ(spec.reference.path, dir / "reference.cu");
  EXPECT_TRUE(spec.reference.libraries.empty());
  ASSERT_TRUE(spec.baseline.has_value());
  EXPECT_EQ(spec.baseline->path, dir / "baseline_cublas.cu");
  EXPECT_EQ(spec.baseline->libraries, std::vector<std::string>{"cublas"});

  ASSERT_TRUE(spec.work.bytes.has_value());
  EXPECT_EQ(*spec.work.bytes->evaluate(spec.env_for(spec.sizes[0])), 8 * 64 * 1000);
  EXPECT_EQ(*spec.work.flops->evaluate(spec.env_for(spec.sizes[0])), 5 * 64 * 1000);
  EXPECT_EQ(spec.work.math, WorkMath::automatic);
  EXPECT_FALSE(tensor_cores_allowed(spec)) << "FP32 buffers: the FP32 peak";

  ASSERT_TRUE(spec.launch.has_value());
  EXPECT_EQ(spec.launch->kernel, "softmax_kernel");
  ASSERT_EQ(spec.launch->grid.size(), 1u);  // a single string is one dimension
  EXPECT_EQ(spec.launch->grid[0].text(), "N");
  EXPECT_EQ(spec.launch->block.size(), 1u);
  EXPECT_EQ(*spec.launch->shared_bytes.evaluate({}), 0);
  EXPECT_NE(spec.find_buffer("in"), nullptr);
  EXPECT_EQ(spec.find_buffer("N"), nullptr);
}

TEST(TaskLoader, SpmvWithStructuredGenerator) {
  auto spec = load_ok("spmv_csr");
  EXPECT_EQ(spec.signature.function, "spmv");
  ASSERT_EQ(spec.buffers.size(), 5u);
  EXPECT_EQ(spec.buffers[1].name, "row_ptr");
  EXPECT_EQ(spec.buffers[1].dtype, DType::i32);
  EXPECT_EQ(spec.buffers[1].role, Role::input);
  EXPECT_TRUE(spec.buffers[1].generators.empty());  // filled by the csr generator
  EXPECT_TRUE(spec.buffers[4].generators.size() == 1 && spec.buffers[4].generators[0].kind == "uniform");
  ASSERT_EQ(spec.structured_generators.count("A"), 1u);
  auto const& csr = spec.structured_generators.at("A");
  EXPECT_EQ(csr.kind, "csr");
  EXPECT_EQ(param_string(csr, "rows"), "M");
  EXPECT_EQ(param_string(csr, "row_lengths"), "power_law");
  EXPECT_EQ(param_number(csr, "alpha"), 1.5);
  EXPECT_EQ(csr.params.count("targets"), 0u);
  EXPECT_EQ(csr.targets.at("row_ptr"), "row_ptr");
  EXPECT_EQ(csr.targets.at("values"), "vals");
  // [scalars] default fills N where a size case omits it; an explicit value wins.
  ASSERT_EQ(spec.sizes.size(), 2u);
  EXPECT_EQ(std::get<std::int64_t>(spec.sizes[0].values.at("N")), 4096);
  EXPECT_EQ(std::get<std::int64_t>(spec.sizes[1].values.at("N")), 1000);
  EXPECT_EQ(spec.reference.libraries, std::vector<std::string>{"cusparse"});
  EXPECT_FALSE(spec.baseline.has_value());
  EXPECT_FALSE(spec.launch.has_value());
  EXPECT_EQ(spec.trials, 3);
}

// A CSR launcher as people write it passes the rows only: the columns and the nonzero count are per-size
// variables, used by the lengths, the generator and the work model.
TEST(TaskLoader, SizeVariablesNameWhatTheLauncherDoesNotTake) {
  auto const dir = data_dir("spmv_csr");
  std::ifstream in(dir / "task.toml");
  std::ostringstream read;
  read << in.rdbuf();
  std::string text = read.str();
  auto replace = [&](std::string const& from, std::string const& to) {
    auto const pos = text.find(from);
    ASSERT_NE(pos, std::string::npos) << from;
    text.replace(pos, from.size(), to);
  };
  replace("const float* x, int M, int N, int NNZ);", "const float* x, int M);");
  replace("[scalars]\nN = 4096\n", "");
  replace("M = 4096\nNNZ = 100000\n", "M = 4096\nvariables = { N = 4096, NNZ = 100000 }\n");
  replace("N = 1000\nNNZ = 500000\n", "variables = { N = 1000, NNZ = 500000 }\n");
  auto spec = parse_task(text, dir / "task.toml", dir);
  ASSERT_TRUE(spec.ok()) << spec.error().message << "\n" << text;
  EXPECT_EQ(spec->signature.params.size(), 6u);
  ASSERT_EQ(spec->sizes.size(), 2u);
  EXPECT_EQ(spec->sizes[1].variables.at("NNZ"), 500000);
  EXPECT_EQ(spec->sizes[1].values.count("NNZ"), 0u);
  auto const env = spec->env_for(spec->sizes[1]);
  EXPECT_EQ(env.at("M"), 100000);
  EXPECT_EQ(env.at("N"), 1000);
  EXPECT_EQ(spec->find_buffer("col_idx")->length.evaluate(env).value(), 500000);
  EXPECT_EQ(spec->work.flops->evaluate(env).value(), 1000000);

  // A name neither a scalar nor a variable is refused, and the expectation lists both kinds of name.
  replace("flops = \"2*NNZ\"", "flops = \"2*nnz\"");
  auto misspelt = parse_task(text, dir / "task.toml", dir);
  ASSERT_FALSE(misspelt.ok());
  EXPECT_NE(misspelt.error().message.find("unknown name 'nnz'"), std::string::npos)
      << misspelt.error().message;
  EXPECT_NE(misspelt.error().message.find("the integer scalars M and the sizes' variables N, NNZ"),
            std::string::npos)
      << misspelt.error().message;
}

TEST(TaskLoader, GemmWithFloatScalarsInoutAndLaunch) {
  auto spec = load_ok("gemm_bf16");
  EXPECT_EQ(spec.name, "gemm_bf16.nt");
  EXPECT_EQ(spec.trials, 5);
  ASSERT_EQ(spec.buffers.size(), 3u);
  EXPECT_EQ(spec.buffers[0].role, Role::inout);
  EXPECT_EQ(spec.buffers[0].dtype, DType::bf16);
  EXPECT_EQ(spec.buffers[0].generators.size(), 1u);
  EXPECT_EQ(spec.buffers[1].generators.size(), 3u);
  EXPECT_EQ(param_number(spec.buffers[1].generators[0], "low"), -1.0);  // integers become doubles
  EXPECT_TRUE(spec.buffers[2].generators.empty());                      // the inputs module picks a default
  EXPECT_TRUE(spec.buffers[2].role == Role::input);
  ASSERT_EQ(spec.scalars.size(), 5u);
  EXPECT_EQ(spec.scalars[3].name, "alpha");
  EXPECT_EQ(spec.scalars[3].dtype, DType::f32);
  auto const& square = spec.sizes[0];
  EXPECT_EQ(std::get<double>(square.values.at("alpha")), 1.0);  // integer given for a float scalar
  EXPECT_EQ(std::get<double>(square.values.at("beta")), 0.5);
  EXPECT_EQ(std::get<double>(spec.sizes[1].values.at("alpha")), -2.5);
  auto env = spec.env_for(square);
  EXPECT_EQ(env.size(), 3u);  // floating scalars are skipped
  EXPECT_EQ(env.count("alpha"), 0u);
  auto bf16 = spec.tolerance_for(DType::bf16);
  EXPECT_EQ(bf16.mismatch_fraction, 0.001);
  EXPECT_EQ(bf16.rtol, 2e-2);
  auto f32 = spec.tolerance_for(DType::f32);
  EXPECT_EQ(f32.rtol, 1e-4);
  EXPECT_EQ(f32.atol, 1e-5);  // missing keys take the dtype default
  EXPECT_EQ(spec.reference.path.filename(), "reference.cu");
  EXPECT_EQ(spec.reference.path.parent_path().filename(), "gemm_bf16");  // "./src/../" normalised away
  ASSERT_TRUE(spec.launch.has_value());
  EXPECT_EQ(spec.launch->kernel, "gemm");  // defaults to the entry name
  ASSERT_EQ(spec.launch->grid.size(), 2u);
  EXPECT_EQ(*spec.launch->grid[0].evaluate(env), 32);
  ASSERT_EQ(spec.launch->block.size(), 3u);
  EXPECT_EQ(*spec.launch->block[0].evaluate(env), 256);
  EXPECT_EQ(*spec.launch->shared_bytes.evaluate(env), 32768);
  EXPECT_EQ(*spec.work.flops->evaluate(env), 2LL * 4096 * 4096 * 4096);
}

TEST(TaskLoader, StrategyParamsAreKeptAsText) {
  auto dir = data_dir("softmax");
  std::ifstream in(dir / "task.toml");
  std::stringstream text;
  text << in.rdbuf() << "\n[strategy_params]\nop = \"x > 0.0f ? x : 0.0f\"\nidentity = \"-INFINITY\"\n";
  auto spec = parse_task(text.str(), dir / "task.toml", dir);
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->strategy_params.size(), 2u);
  EXPECT_EQ(spec->strategy_params.at("op"), "x > 0.0f ? x : 0.0f");
  EXPECT_EQ(spec->strategy_params.at("identity"), "-INFINITY");
}

TEST(TaskLoader, BindingValuesAreParametersIntegerExpressionsOrNumbers) {
  auto dir = data_dir("softmax");
  std::ifstream in(dir / "task.toml");
  std::stringstream text;
  text << in.rdbuf() << "\n[binding]\nout = \"out\"\nrows = \"N * 2\"\ncols = 2048\ns = 0.5\n";
  auto spec = parse_task(text.str(), dir / "task.toml", dir);
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->binding.at("out"), "out");
  EXPECT_EQ(spec->binding.at("rows"), "N * 2");
  EXPECT_EQ(spec->binding.at("cols"), "2048");
  EXPECT_EQ(spec->binding.at("s"), "0.5");
}

// A slice of a buffer ("in + N"): a pointer parameter plus an integer expression over the integer
// scalars; anything else after the '+' (a float scalar, an unknown name) is an error naming the role.
TEST(TaskLoader, ABindingMayGiveASliceOfABuffer) {
  auto dir = data_dir("softmax");
  std::ifstream in(dir / "task.toml");
  std::stringstream base;
  base << in.rdbuf();
  auto spec = parse_task(base.str() + "\n[binding]\nx = \"in + 2*C\"\n", dir / "task.toml", dir);
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->binding.at("x"), "in + 2*C");
  auto const slice = parse_pointer_slice(spec->signature, "in + 2*C");
  ASSERT_TRUE(slice);
  EXPECT_EQ(slice->pointer, "in");
  EXPECT_EQ(slice->offset, "2*C");
  EXPECT_FALSE(parse_pointer_slice(spec->signature, "N + C"));  // N is no pointer
  EXPECT_FALSE(parse_pointer_slice(spec->signature, "in"));
  auto bad = parse_task(base.str() + "\n[binding]\nx = \"in + stride\"\n", dir / "task.toml", dir);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("binding.x"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("a slice of a buffer"), std::string::npos) << bad.error().message;
}

TEST(TaskLoader, WorkMathChoosesThePeakTheFlopsAreHeldAgainst) {
  auto const suite = std::filesystem::path(KOPT_SOURCE_DIR) / "suites";
  auto nbody = load_task(suite / "scientific" / "nbody-bf16");  // BF16 storage, FP32 arithmetic
  ASSERT_TRUE(nbody) << nbody.error().message;
  EXPECT_EQ(nbody->work.math, WorkMath::fp32);
  EXPECT_FALSE(tensor_cores_allowed(*nbody));
  auto gemm = load_task(suite / "algebra" / "gemm-bf16");
  ASSERT_TRUE(gemm) << gemm.error().message;
  EXPECT_EQ(gemm->work.math, WorkMath::tensor);
  EXPECT_TRUE(tensor_cores_allowed(*gemm));
  TaskSpec automatic = *nbody;
  automatic.work.math = WorkMath::automatic;
  EXPECT_TRUE(tensor_cores_allowed(automatic)) << "without math, BF16 buffers mean the tensor-core peak";
}

TEST(TaskLoader, HistogramIntegerTypes) {
  auto spec = load_ok("histogram");
  ASSERT_EQ(spec.buffers.size(), 2u);
  EXPECT_EQ(spec.buffers[0].dtype, DType::u32);
  EXPECT_EQ(spec.buffers[0].role, Role::output);
  EXPECT_EQ(spec.buffers[1].dtype, DType::i32);
  EXPECT_EQ(param_string(spec.buffers[1].generators[0], "high"), "C-1");
  EXPECT_EQ(param_number(spec.buffers[1].generators[0], "low"), 0.0);
  EXPECT_EQ(spec.scalars[1].dtype, DType::u32);
  auto tol = spec.tolerance_for(DType::u32);
  EXPECT_EQ(tol.atol, 0.0);
  EXPECT_EQ(tol.rtol, 0.0);
  EXPECT_FALSE(spec.work.bytes.has_value());
  EXPECT_FALSE(spec.launch.has_value());
}

TEST(TaskLoader, LoadsADirectFilePathToo) {
  auto spec = load_task(data_dir("histogram") / "task.toml");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->name, "histogram_u32");
}

TEST(TaskLoader, MissingFolderIsNotFound) {
  auto spec = load_task(data_dir("does_not_exist"));
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.error().code, ErrorCode::not_found);
  EXPECT_NE(spec.error().message.find("task.toml"), std::string::npos);
}

TEST(TaskSpecDefaults, TolerancesAndRoles) {
  EXPECT_EQ(default_tolerance(DType::f32).atol, 1e-5);
  EXPECT_EQ(default_tolerance(DType::f32).rtol, 1e-5);
  EXPECT_EQ(default_tolerance(DType::f64).rtol, 1e-10);
  EXPECT_EQ(default_tolerance(DType::f16).atol, 1e-3);
  EXPECT_EQ(default_tolerance(DType::f16).rtol, 1e-2);
  EXPECT_EQ(default_tolerance(DType::bf16).atol, 1e-2);
  EXPECT_EQ(default_tolerance(DType::bf16).rtol, 1.6e-2);
  for (auto dtype : {DType::i8, DType::u8, DType::i16, DType::i32, DType::u32, DType::i64, DType::u64}) {
    EXPECT_EQ(default_tolerance(dtype).atol, 0.0);
    EXPECT_EQ(default_tolerance(dtype).rtol, 0.0);
  }
  EXPECT_EQ(default_tolerance(DType::bf16).mismatch_fraction, 0.0);
  EXPECT_EQ(to_string(Role::input), "input");
  EXPECT_EQ(to_string(Role::output), "output");
  EXPECT_EQ(to_string(Role::inout), "inout");
  EXPECT_EQ(to_string(Role::scratch), "scratch");
  // What the worker does with each: generated, compared.
  EXPECT_TRUE(has_initial_contents(Role::input) && has_initial_contents(Role::inout));
  EXPECT_FALSE(has_initial_contents(Role::output) || has_initial_contents(Role::scratch));
  EXPECT_TRUE(is_compared(Role::output) && is_compared(Role::inout));
  EXPECT_FALSE(is_compared(Role::input) || is_compared(Role::scratch));
}

// A workspace the caller hands in: role = "scratch" on a non-const pointer.
TEST(TaskLoader, AScratchBufferIsTheCallersWorkspace) {
  auto const spec = load_task(std::filesystem::path(KOPT_SOURCE_DIR) / "tests" / "propose" / "foreign" /
                              "reduction-two_pass_caller_workspace");
  ASSERT_TRUE(spec) << spec.error().message;
  ASSERT_NE(spec->find_buffer("partial"), nullptr);
  EXPECT_EQ(spec->find_buffer("partial")->role, Role::scratch);
  EXPECT_EQ(spec->find_buffer("out")->role, Role::output);
}

// A task imported from a PyTorch problem (docs/pytorch.md): `[reference] torch = "problem.py"` with a
// precision; no libraries, not both a source and a problem, and a precision kopt knows.
TEST(TaskLoader, APyTorchReferenceIsAProblemFileWithAPrecision) {
  auto const spec = load_ok("torch_relu");
  EXPECT_TRUE(spec.reference.is_torch());
  EXPECT_EQ(spec.reference.precision, "fp32");
  EXPECT_EQ(spec.reference.path.filename(), "problem.py");
  EXPECT_TRUE(spec.reference.libraries.empty());

  auto const dir = data_dir("torch_relu");
  std::ifstream in(dir / "task.toml");
  std::ostringstream read;
  read << in.rdbuf();
  std::string const text = read.str();
  auto with = [&](std::string const& from, std::string const& to) {
    std::string changed = text;
    auto const pos = changed.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    if (pos != std::string::npos) changed.replace(pos, from.size(), to);
    return parse_task(changed, dir / "task.toml", dir);
  };
  auto expect_error = [](Result<TaskSpec> const& parsed, std::string const& part) {
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.error().message.find(part), std::string::npos) << parsed.error().message;
  };
  expect_error(with("precision = \"fp32\"", "precision = \"fp16\""),
               "reference.precision: is 'fp16'; expected \"fp32\" or \"bf16\"");
  expect_error(with("precision = \"fp32\"\n", ""), "reference.precision: missing");
  expect_error(with("torch = \"problem.py\"", "torch = \"missing.py\""),
               "reference.torch: file 'missing.py' not found");
  expect_error(with("torch = \"problem.py\"", "torch = \"problem.py\"\nsource = \"problem.py\""),
               "reference.source: is given with torch");
  expect_error(with("torch = \"problem.py\"", "torch = \"problem.py\"\nlibraries = [\"cublas\"]"),
               "libraries");
  auto const bf16 = with("precision = \"fp32\"", "precision = \"bf16\"");
  ASSERT_TRUE(bf16.ok()) << bf16.error().message;
  EXPECT_EQ(bf16->reference.precision, "bf16");
  // A CUDA reference stays what it was.
  EXPECT_FALSE(load_ok("spmv_csr").reference.is_torch());
}

}  // namespace task_loader_test
}  // namespace kopt
