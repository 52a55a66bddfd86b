#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kopt/task.hpp"

namespace kopt {
namespace task_init_test {

namespace fs = std::filesystem;

fs::path data_dir(std::string const& name) {
  return fs::path(KOPT_SOURCE_DIR) / "tests" / "task" / "data" / name;
}

std::string read_text(fs::path const& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(fs::path const& path, std::string const& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

void replace_once(std::string& text, std::string const& from, std::string const& to) {
  auto pos = text.find(from);
  ASSERT_NE(pos, std::string::npos) << "not found: " << from << "\nin:\n" << text;
  text.replace(pos, from.size(), to);
}

class TaskInit : public ::testing::Test {
 protected:
  void SetUp() override {
    auto const* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() / ("kopt_task_init_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
};

TEST_F(TaskInit, RoundTripSoftmax) {
  auto task_dir = root_ / "softmax_task";
  auto init = init_task(data_dir("softmax") / "reference.cu", task_dir, false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  EXPECT_EQ(init->task_dir, fs::absolute(task_dir));
  std::vector<std::string> fields;
  for (auto const& todo : init->todos) fields.push_back(todo.substr(0, todo.find(": ")));
  EXPECT_EQ(fields, (std::vector<std::string>{"description", "buffers.out.length", "buffers.in.length",
                                              "sizes[0].N", "sizes[0].C", "work.bytes", "work.flops"}));
  EXPECT_EQ(read_text(task_dir / "reference.cu"), read_text(data_dir("softmax") / "reference.cu"));

  std::string text = read_text(task_dir / "task.toml");
  EXPECT_NE(text.find("name = \"softmax\""), std::string::npos) << text;
  EXPECT_NE(text.find("void softmax(float* out, const float* in, int N, int C)"), std::string::npos) << text;
  EXPECT_NE(text.find("# role = \"output\""), std::string::npos) << text;
  EXPECT_NE(text.find("# role = \"input\""), std::string::npos) << text;
  EXPECT_NE(text.find("f32 = { atol = 1e-05, rtol = 1e-05 }"), std::string::npos) << text;
  EXPECT_NE(text.find("source = \"reference.cu\""), std::string::npos) << text;
  EXPECT_NE(text.find("# [launch]"), std::string::npos) << text;

  // The skeleton does not load until every TODO is filled in, and the error names each of them.
  auto unfinished = load_task(task_dir);
  ASSERT_FALSE(unfinished.ok());
  for (auto const& field : fields) {
    EXPECT_NE(unfinished.error().message.find(field + ": still TODO"), std::string::npos)
        << field << " not named in:\n"
        << unfinished.error().message;
  }

  replace_once(text, "\"TODO: say in plain language what softmax computes\"", "\"Row-wise softmax.\"");
  replace_once(text, "length = \"TODO\"", "length = \"N*C\"");
  replace_once(text, "length = \"TODO\"", "length = \"N*C\"");
  replace_once(text, "N = \"TODO\"", "N = 8");
  replace_once(text, "C = \"TODO\"", "C = 100");
  replace_once(text, "bytes = \"TODO\"", "bytes = \"8*N*C\"");
  replace_once(text, "flops = \"TODO\"", "flops = \"5*N*C\"");
  EXPECT_EQ(text.find("\"TODO"), std::string::npos);
  write_text(task_dir / "task.toml", text);

  auto spec = load_task(task_dir);
  ASSERT_TRUE(spec.ok()) << spec.error().message << "\n" << text;
  EXPECT_EQ(spec->name, "softmax");
  ASSERT_EQ(spec->buffers.size(), 2u);
  EXPECT_EQ(spec->buffers[0].role, Role::output);
  EXPECT_EQ(spec->buffers[1].role, Role::input);
  EXPECT_EQ(spec->sizes.size(), 1u);
  EXPECT_EQ(spec->reference.path, fs::absolute(task_dir).lexically_normal() / "reference.cu");
  EXPECT_EQ(spec->tolerance_for(DType::f32).atol, 1e-5);
}

TEST_F(TaskInit, FindsLauncherInsideExternBlockSkippingKernels) {
  auto init = init_task(data_dir("gemm_bf16") / "reference.cu", root_ / "gemm", false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  std::string text = read_text(root_ / "gemm" / "task.toml");
  EXPECT_NE(text.find("name = \"gemm\""), std::string::npos) << text;
  EXPECT_NE(text.find("alpha = \"TODO\""), std::string::npos) << text;
  EXPECT_NE(text.find("bf16 = { atol = 0.01, rtol = 0.016 }"), std::string::npos) << text;
  EXPECT_NE(text.find("__nv_bfloat16 const* A"), std::string::npos) << text;
  EXPECT_EQ(init->todos.size(), 1u + 3u + 5u + 2u);

  // Fill in with a floating value for the float scalars; the signature written by init loads back.
  for (auto const& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"TODO: say in plain language what gemm computes\"", "\"GEMM\""},
           {"M = \"TODO\"", "M = 64"},
           {"N = \"TODO\"", "N = 64"},
           {"K = \"TODO\"", "K = 64"},
           {"alpha = \"TODO\"", "alpha = 1.0"},
           {"beta = \"TODO\"", "beta = 0"},
           {"bytes = \"TODO\"", "bytes = \"2*M*N\""},
           {"flops = \"TODO\"", "flops = \"2*M*N*K\""}}) {
    replace_once(text, from, to);
  }
  for (int i = 0; i < 3; ++i) replace_once(text, "length = \"TODO\"", "length = \"M*N\"");
  write_text(root_ / "gemm" / "task.toml", text);
  auto spec = load_task(root_ / "gemm");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->signature.params.size(), 8u);
  EXPECT_EQ(spec->buffers[1].dtype, DType::bf16);
  EXPECT_TRUE(spec->buffers[1].role == Role::input);
}

TEST_F(TaskInit, DefaultArgumentsBecomeTheScalarsValues) {
  // A launcher as people write it: an attribute, default arguments (one an expression, one a name).
  write_text(root_ / "elu.cu", R"(#include <cuda_runtime.h>
__global__ void elu_kernel(float* out, const float* in, int n, float alpha) {}
extern "C" __attribute__((visibility("default"))) void elu(float* out, const float* in, int n = (1 << 20),
                                                           float alpha = 1.0f, float eps = -.5e-3F,
                                                           int mode = 3, float beta = kBeta) {
  elu_kernel<<<(n + 255) / 256, 256>>>(out, in, n, alpha);
}
)");
  auto init = init_task(root_ / "elu.cu", root_ / "elu", false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  std::string const text = read_text(root_ / "elu" / "task.toml");
  EXPECT_NE(text.find("alpha = 1.0  # the launcher's default argument (float alpha = 1.0f)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("eps = -0.5e-3  #"), std::string::npos) << text;
  EXPECT_NE(text.find("mode = 3  #"), std::string::npos) << text;
  // An expression or a name is not a value kopt can take for granted: still a TODO.
  EXPECT_NE(text.find("n = \"TODO\""), std::string::npos) << text;
  EXPECT_NE(text.find("beta = \"TODO\""), std::string::npos) << text;
  EXPECT_NE(
      text.find("void elu(float* out, const float* in, int n, float alpha, float eps, int mode, float beta)"),
      std::string::npos)
      << text;
  for (auto const& todo : init->todos) {
    EXPECT_EQ(todo.find("sizes[0].alpha"), std::string::npos) << todo;
    EXPECT_EQ(todo.find("sizes[0].mode"), std::string::npos) << todo;
  }
}

// A launcher that takes the caller's stream: no size value, no buffer, and the task loads once the
// lengths and sizes are filled in.
TEST_F(TaskInit, AStreamParameterNeedsNoSizeOrBuffer) {
  write_text(root_ / "relu.cu", R"(#include <cuda_runtime.h>
__global__ void relu_kernel(const float* x, float* y, int n) {}
extern "C" void relu(const float* x, float* y, int n, cudaStream_t stream) {
  relu_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, y, n);
}
)");
  auto init = init_task(root_ / "relu.cu", root_ / "relu", false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  std::string text = read_text(root_ / "relu" / "task.toml");
  EXPECT_EQ(text.find("stream ="), std::string::npos) << text;
  EXPECT_EQ(text.find("[buffers.stream]"), std::string::npos) << text;
  for (auto const& todo : init->todos) EXPECT_EQ(todo.find("stream"), std::string::npos) << todo;
  replace_once(text, "n = \"TODO\"", "n = 1000");
  // Every other TODO (lengths, the description, the work) becomes "n".
  for (auto at = text.find("\"TODO"); at != std::string::npos; at = text.find("\"TODO")) {
    text.replace(at, text.find('"', at + 1) + 1 - at, "\"n\"");
  }
  write_text(root_ / "relu" / "task.toml", text);
  auto task = load_task(root_ / "relu");
  ASSERT_TRUE(task.ok()) << task.error().message << "\n" << text;
  EXPECT_EQ(task->scalars.size(), 1u);
  EXPECT_EQ(task->buffers.size(), 2u);
}

// A launcher on cuFFT's complex type: the buffer's length counts complex values, and the task says so.
TEST_F(TaskInit, AComplexBufferCountsItsElements) {
  write_text(root_ / "spectrum.cu", R"(#include <cufft.h>
extern "C" void scale_spectrum(cufftComplex* spec, const float* gain, int n) {}
)");
  auto init = init_task(root_ / "spectrum.cu", root_ / "spectrum", false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  std::string text = read_text(root_ / "spectrum" / "task.toml");
  EXPECT_NE(text.find("# one element is one cufftComplex (2 x f32): generated and compared as its 2 scalars"),
            std::string::npos)
      << text;
  replace_once(text, "n = \"TODO\"", "n = 1000");
  for (auto at = text.find("\"TODO"); at != std::string::npos; at = text.find("\"TODO")) {
    text.replace(at, text.find('"', at + 1) + 1 - at, "\"n\"");
  }
  write_text(root_ / "spectrum" / "task.toml", text);
  auto task = load_task(root_ / "spectrum");
  ASSERT_TRUE(task.ok()) << task.error().message << "\n" << text;
  EXPECT_EQ(task->buffers.front().lanes, 2);  // n values, 2n floats (buffer_lengths, tests/inputs)
}

TEST_F(TaskInit, RefusesToOverwriteUnlessAsked) {
  auto source = data_dir("histogram") / "reference.cu";
  ASSERT_TRUE(init_task(source, root_ / "t", false).ok());
  write_text(root_ / "t" / "task.toml", "edited");
  auto again = init_task(source, root_ / "t", false);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("already exists"), std::string::npos) << again.error().message;
  EXPECT_EQ(read_text(root_ / "t" / "task.toml"), "edited");
  auto forced = init_task(source, root_ / "t", true);
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  EXPECT_NE(read_text(root_ / "t" / "task.toml").find("histogram"), std::string::npos);
}

TEST_F(TaskInit, ReinitInPlaceKeepsTheReference) {
  auto dir = root_ / "inplace";
  fs::create_directories(dir);
  fs::copy_file(data_dir("histogram") / "reference.cu", dir / "reference.cu");
  auto init = init_task(dir / "reference.cu", dir, false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  EXPECT_EQ(read_text(dir / "reference.cu"), read_text(data_dir("histogram") / "reference.cu"));
}

TEST_F(TaskInit, ErrorsForMissingSourceAndNoLauncher) {
  auto missing = init_task(root_ / "nope.cu", root_ / "t", false);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);

  write_text(root_ / "kernel_only.cu",
             "// extern \"C\" void commented(float* x);\n"
             "extern \"C\" __global__ void k(float* x) {}\n"
             "const char* s = \"extern \\\"C\\\" \";\n");
  auto none = init_task(root_ / "kernel_only.cu", root_ / "t", false);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no extern \"C\" host function"), std::string::npos)
      << none.error().message;
  EXPECT_FALSE(fs::exists(root_ / "t" / "task.toml"));

  write_text(root_ / "bad.cu", "\n\nextern \"C\" int f(float* x) { return 0; }\n");
  auto bad = init_task(root_ / "bad.cu", root_ / "t", false);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("bad.cu:3:"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("expected void"), std::string::npos) << bad.error().message;
}

// Outside text (issue #23): 1 MiB of spaces after `extern` is read in linear time (std::regex recursed once
// per character and overflowed the stack).
TEST_F(TaskInit, AMegabyteOfSpacesAfterExternIsReadNotACrash) {
  std::string const spaces(std::size_t{1} << 20, ' ');
  write_text(root_ / "fill.cu", "extern" + spaces + "\"C\"" + spaces + "void fill(double* out) { }\n");
  auto init = init_task(root_ / "fill.cu", root_ / "fill", false);
  ASSERT_TRUE(init.ok()) << init.error().message.substr(0, 500);
  EXPECT_NE(read_text(root_ / "fill" / "task.toml").find("void fill(double* out)"), std::string::npos);

  write_text(root_ / "none.cu", "extern" + spaces + "int x;\n");
  auto none = init_task(root_ / "none.cu", root_ / "none", false);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no extern \"C\" host function"), std::string::npos)
      << none.error().message.substr(0, 500);
}

TEST_F(TaskInit, NoScalarsAndOnlyOutputs) {
  write_text(root_ / "fill.cu", "extern \"C\" void fill(double* __restrict__ out) { }\n");
  auto init = init_task(root_ / "fill.cu", root_ / "fill", false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  std::string text = read_text(root_ / "fill" / "task.toml");
  replace_once(text, "\"TODO: say in plain language what fill computes\"", "\"Fills out with a constant.\"");
  replace_once(text, "length = \"TODO\"", "length = 1024");
  replace_once(text, "[work]", "#[work]");
  replace_once(text, "bytes = \"TODO\"", "");
  replace_once(text, "flops = \"TODO\"", "");
  write_text(root_ / "fill" / "task.toml", text);
  auto spec = load_task(root_ / "fill");
  ASSERT_TRUE(spec.ok()) << spec.error().message << "\n" << text;
  EXPECT_TRUE(spec->scalars.empty());
  EXPECT_EQ(*spec->buffers[0].length.evaluate({}), 1024);
  EXPECT_EQ(spec->tolerance_for(DType::f64).atol, 1e-10);
}

}  // namespace task_init_test
}  // namespace kopt

namespace kopt {
namespace task_init_test {

// The skeleton's example expressions use the launcher's own names: a user who copies "N*C" into a task
// whose launcher says `int n` gets an unknown-name error.
TEST(TaskInitExamples, ExamplesUseTheLaunchersOwnIntegerNames) {
  auto const root = fs::temp_directory_path() / ("kopt_task_init_names_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  write_text(root / "vector_add.cu",
             "__global__ void add(const float* a, const float* b, float* c, int n) {}\n"
             "extern \"C\" void vector_add(const float* a, const float* b, float* c, int n) {\n"
             "  add<<<(n + 255) / 256, 256>>>(a, b, c, n);\n}\n");
  auto init = init_task(root / "vector_add.cu", root / "task", false);
  ASSERT_TRUE(init.ok()) << init.error().message;
  auto const spec = read_text(root / "task" / "task.toml");
  EXPECT_NE(spec.find("an integer expression over n such as \"n\""), std::string::npos) << spec;
  EXPECT_NE(spec.find("e.g. \"12*n\""), std::string::npos) << spec;  // three float buffers of n elements
  EXPECT_NE(spec.find("# grid = [\"ceil_div(n, 256)\"]"), std::string::npos) << spec;
  EXPECT_EQ(spec.find("N*C"), std::string::npos) << spec;
  EXPECT_EQ(spec.find("ceil_div(N"), std::string::npos) << spec;
  fs::remove_all(root);
}

}  // namespace task_init_test
}  // namespace kopt
