// Candidate sources holding a long run of what kopt's patterns repeat over (issue #23): with
// `"__global__ " + "a " * 200000` before the kernel, `kopt optimize --from` died with SIGSEGV (exit 139) in
// src/propose/generic_space.cpp, where std::regex recursed once per character. kopt matches with RE2 now
// (linear time, no recursion): the command ends as it would for any source, with an exit code and a message,
// never a signal.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/kopt_process.hpp"

namespace kopt {
namespace hostile_sources_test {

using HostileSources = test::KoptProcessTest;

TEST_F(HostileSources, AMegabyteBetweenGlobalAndTheKernelIsAnAnswerNotACrash) {
  std::string source = "__global__ ";
  for (int i = 0; i < 500000; ++i) source += "a ";
  source +=
      "\n// kopt:launch grid=(ceil_div(n, 256)) block=(256)\n"
      "extern \"C\" __global__ void vector_add(float* c, const float* a, const float* b, int n) {\n"
      "  int const i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) c[i] = a[i] + b[i];\n"
      "}\n";
  auto const path = dir.path() / "hostile.cu";
  std::ofstream(path, std::ios::binary) << source;
  // --device 99: no machine has that GPU, so the command ends after reading the source on a GPU machine
  // too (exit 2 or 3, as on a machine without one); --store keeps the source tree clean.
  auto const outcome = run("", "optimize examples/vector_add --from " + path.string() +
                                   " --device 99 --store " + (dir.path() / "kopt.db").string());
  EXPECT_TRUE(outcome.exit_code == 2 || outcome.exit_code == 3) << outcome.exit_code << "\n" << outcome.err;
  EXPECT_NE(outcome.err.find("kopt: error: "), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("tuning kopt's generic one"), std::string::npos)
      << "the generic space was built from the source\n"
      << outcome.err;
}

}  // namespace hostile_sources_test
}  // namespace kopt
