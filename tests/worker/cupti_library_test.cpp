// The CUPTI loader (src/worker/gpu/cupti_library.cpp) on a machine with or without libcupti: a missing
// library is reported as unavailable with every path tried; never a crash.
#include "worker/gpu/cupti_library.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>

namespace kopt::worker {
namespace cupti_library_test {

TEST(CuptiLibrary, MissingLibraryIsUnavailableAndNamesEveryPathTried) {
  auto loaded = CuptiLibrary::load({"/nonexistent/kopt/libcupti.so.13", "/nonexistent/kopt/libcupti.so"});
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().code, ErrorCode::not_found);
  EXPECT_NE(loaded.error().message.find("CUPTI not available"), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("/nonexistent/kopt/libcupti.so.13"), std::string::npos);
  EXPECT_NE(loaded.error().message.find("/nonexistent/kopt/libcupti.so ("), std::string::npos);
}

TEST(CuptiLibrary, NoCandidateIsUnavailable) {
  auto loaded = CuptiLibrary::load({});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("no library path"), std::string::npos) << loaded.error().message;
}

TEST(CuptiLibrary, ALibraryWithoutTheEntryPointsIsRejected) {
  // libm loads but is not CUPTI.
  auto loaded = CuptiLibrary::load({"libm.so.6"});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("libm.so.6 (no cuptiGetVersion)"), std::string::npos)
      << loaded.error().message;
}

TEST(CuptiLibrary, CandidatesSearchTheCudaInstallThenTheSoname) {
  unsetenv("KOPT_WORKER_CUPTI_LIBRARY");
  auto const candidates = cupti_library_candidates();
  auto has = [&](std::filesystem::path const& p) {
    return std::find(candidates.begin(), candidates.end(), p) != candidates.end();
  };
  EXPECT_TRUE(has("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13"));
  EXPECT_TRUE(has("/usr/local/cuda/lib64/libcupti.so"));
  EXPECT_TRUE(has("/usr/local/cuda/lib/libcupti.so.13"));
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.back(), "libcupti.so");
  setenv("KOPT_WORKER_CUPTI_LIBRARY", "/opt/custom/libcupti.so", 1);
  EXPECT_EQ(cupti_library_candidates().front(), "/opt/custom/libcupti.so");
  unsetenv("KOPT_WORKER_CUPTI_LIBRARY");
}

TEST(CuptiLibrary, LoadsTheToolkitsLibraryWhenItIsInstalled) {
  std::vector<std::filesystem::path> present;
  for (auto const& p : cupti_library_candidates()) {
    if (p.is_absolute() && std::filesystem::exists(p)) present.push_back(p);
  }
  if (present.empty()) GTEST_SKIP() << "no libcupti under the CUDA install here";
  auto loaded = CuptiLibrary::load(present);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ((*loaded)->version() / 10000, static_cast<uint32_t>(CUPTI_API_VERSION / 10000));
  EXPECT_NE((*loaded)->api().activity_enable, nullptr);
  EXPECT_FALSE((*loaded)->describe(CUPTI_ERROR_NOT_INITIALIZED).empty());
}

}  // namespace cupti_library_test
}  // namespace kopt::worker
