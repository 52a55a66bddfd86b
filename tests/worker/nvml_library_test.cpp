// The NVML loader never crashes without NVML: a missing library or missing functions are clear errors.
#include "worker/gpu/nvml_library.hpp"

#include <gtest/gtest.h>

namespace kopt::worker {
namespace nvml_library_test {

TEST(NvmlLibrary, AMissingLibraryIsNotFoundAndNamed) {
  auto nvml = NvmlLibrary::load("libkopt-no-such-nvml.so.1");
  ASSERT_FALSE(nvml.ok());
  EXPECT_EQ(nvml.error().code, ErrorCode::not_found);
  EXPECT_NE(nvml.error().message.find("NVML library 'libkopt-no-such-nvml.so.1' could not be loaded"),
            std::string::npos)
      << nvml.error().message;
}

TEST(NvmlLibrary, ALibraryWithoutNvmlFunctionsIsNotFoundAndListsThem) {
  auto nvml = NvmlLibrary::load("libm.so.6");  // loads, but is not NVML
  ASSERT_FALSE(nvml.ok());
  EXPECT_EQ(nvml.error().code, ErrorCode::not_found);
  EXPECT_NE(nvml.error().message.find("nvmlInit_v2"), std::string::npos) << nvml.error().message;
  EXPECT_NE(nvml.error().message.find("nvmlDeviceGetTotalEnergyConsumption"), std::string::npos);
}

TEST(NvmlLibrary, TheDriversLibraryLoadsOrSaysWhyNot) {
  auto nvml = NvmlLibrary::load();
  if (nvml.ok()) GTEST_SKIP() << "this machine has NVML (a GPU host); the error path is not reachable";
  EXPECT_EQ(nvml.error().code, ErrorCode::not_found);
  EXPECT_EQ(nvml.error().message.rfind("NVML ", 0), 0U) << nvml.error().message;
}

}  // namespace nvml_library_test
}  // namespace kopt::worker
