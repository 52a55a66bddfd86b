#include <gtest/gtest.h>

#include "cli/parse_support.hpp"
#include "cli/settings.hpp"
#include "kopt/llm.hpp"

namespace kopt::cli {
namespace llm_backend_help_test {

TEST(LlmBackendHelp, GenerateHelpListsEveryRegisteredBackendWithItsDescription) {
  auto const run = test::parse({"generate", "--help"});
  EXPECT_NE(run.out.find("Backends (KOPT_LLM_BACKEND):"), std::string::npos) << run.out;
  for (LlmBackendInfo const& backend : llm_backends()) {
    EXPECT_NE(run.out.find("  " + std::string(backend.name) + " "), std::string::npos) << backend.name;
    EXPECT_NE(run.out.find(std::string(backend.description)), std::string::npos) << backend.name;
  }
  EXPECT_NE(run.out.find("Anthropic Messages API; needs network, KOPT_LLM_MODEL, an API key"),
            std::string::npos)
      << run.out;
}

TEST(LlmBackendHelp, TheSettingsChoicesAreTheRegistryNames) {
  Setting const* backend = find_setting_by_env("KOPT_LLM_BACKEND");
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->choices, llm_backend_names("|"));
}

}  // namespace llm_backend_help_test
}  // namespace kopt::cli
