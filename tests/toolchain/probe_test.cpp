#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "kopt/toolchain.hpp"

namespace kopt {
namespace probe_test {

ToolStatus const* find_tool(std::vector<ToolStatus> const& tools, std::string const& name) {
  auto const it =
      std::find_if(tools.begin(), tools.end(), [&](ToolStatus const& t) { return t.name == name; });
  return it == tools.end() ? nullptr : &*it;
}

bool has_gpu_driver() {
  return std::filesystem::exists("/dev/nvidiactl");
}

TEST(FindProgram, FindsShButNotABogusName) {
  auto const sh = find_program("sh");
  ASSERT_TRUE(sh.has_value());
  EXPECT_EQ(sh->filename(), "sh");
  EXPECT_TRUE(std::filesystem::exists(*sh));
  EXPECT_FALSE(find_program("kopt_definitely_not_a_program_42").has_value());
  EXPECT_FALSE(find_program("").has_value());
}

TEST(FindCudaHome, HonoursCudaHomeVariable) {
  char const* old = std::getenv("CUDA_HOME");
  std::string const saved = old != nullptr ? old : "";
  auto const home = find_cuda_home();
  EXPECT_TRUE(std::filesystem::exists(home / "include" / "cuda_runtime.h")) << home;

  auto const fake = std::filesystem::temp_directory_path() / "kopt_fake_cuda_home";
  std::filesystem::create_directories(fake / "include");
  setenv("CUDA_HOME", fake.c_str(), 1);
  EXPECT_EQ(find_cuda_home(), fake);
  // A CUDA_HOME that is not a toolkit is ignored.
  setenv("CUDA_HOME", "/nonexistent/kopt", 1);
  EXPECT_NE(find_cuda_home(), std::filesystem::path("/nonexistent/kopt"));
  if (old != nullptr) {
    setenv("CUDA_HOME", saved.c_str(), 1);
  } else {
    unsetenv("CUDA_HOME");
  }
  std::filesystem::remove_all(fake);
}

TEST(ExecutableDir, IsTheTestBinaryFolder) {
  auto const dir = executable_dir();
  EXPECT_TRUE(std::filesystem::exists(dir / "kopt_toolchain_tests")) << dir;
}

TEST(ProbeToolchain, FindsNvccAndNvrtc) {
  auto const tools = probe_toolchain();
  auto const* nvcc = find_tool(tools, "nvcc");
  ASSERT_NE(nvcc, nullptr);
  ASSERT_TRUE(nvcc->found) << nvcc->note;
  EXPECT_NE(nvcc->version.find("release"), std::string::npos) << nvcc->version;
  EXPECT_EQ(nvcc->path.filename(), "nvcc");
  EXPECT_FALSE(nvcc->note.empty());

  auto const* nvrtc = find_tool(tools, "NVRTC");
  ASSERT_NE(nvrtc, nullptr);
  ASSERT_TRUE(nvrtc->found) << nvrtc->note;
  EXPECT_NE(nvrtc->version.find('.'), std::string::npos);
  EXPECT_NE(nvrtc->path.string().find("nvrtc"), std::string::npos);
}

TEST(ProbeToolchain, ReportsEveryToolWithANote) {
  auto const tools = probe_toolchain();
  for (char const* name : {"nvcc", "NVRTC", "driver", "ncu", "compute-sanitizer", "cuobjdump", "nvdisasm"}) {
    auto const* tool = find_tool(tools, name);
    ASSERT_NE(tool, nullptr) << name;
    EXPECT_FALSE(tool->note.empty()) << name;
    if (!tool->found) {
      EXPECT_TRUE(tool->version.empty()) << name;
    }
  }
}

TEST(ProbeToolchain, DriverMatchesThisMachine) {
  auto const tools = probe_toolchain();
  auto const* driver = find_tool(tools, "driver");
  ASSERT_NE(driver, nullptr);
  if (has_gpu_driver()) {
    EXPECT_TRUE(driver->found) << driver->note;
  } else {
    EXPECT_FALSE(driver->found);
    EXPECT_NE(driver->note.find("no driver"), std::string::npos) << driver->note;
    EXPECT_NE(driver->note.find("no GPU"), std::string::npos) << driver->note;
  }
}

}  // namespace probe_test
}  // namespace kopt
