// `kopt report` end to end: the built kopt executable on a store made with the fake evaluator.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>

#include "run_report/run_report_fixtures.hpp"

namespace kopt {
namespace report_command_test {

using test::RunFixture;

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

struct ReportCommand : RunFixture {
  void SetUp() override {
    kopt = std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt";
    if (!std::filesystem::exists(kopt)) GTEST_SKIP() << "build the kopt executable first (" << kopt << ")";
    run = make_run("greedy", 30, 11, test::shifted_landscape);
  }
  Outcome kopt_report(std::string const& arguments) {
    auto const out = dir.path() / "stdout";
    auto const err = dir.path() / "stderr";
    std::string const command = kopt.string() + " report " + arguments + " --store " +
                                (dir.path() / "kopt.db").string() + " >" + out.string() + " 2>" +
                                err.string();
    int const status = std::system(command.c_str());
    return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::read_text(out), test::read_text(err)};
  }
  std::filesystem::path kopt;
  RunId run;
};

TEST_F(ReportCommand, MarkdownOnStdoutByDefault) {
  Outcome const result = kopt_report(std::to_string(run.value()));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, render_run_markdown(report_of(run)));
}

TEST_F(ReportCommand, WritesHtmlOrMarkdownByExtension) {
  auto const html = dir.path() / "report.html";
  Outcome result = kopt_report(std::to_string(run.value()) + " -o " + html.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(test::read_text(html), render_run_html(report_of(run)));
  EXPECT_NE(result.out.find("wrote " + html.string() + " (html)"), std::string::npos);
  auto const md = dir.path() / "summary.md";
  result = kopt_report(std::to_string(run.value()) + " -o " + md.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(test::read_text(md), render_run_markdown(report_of(run)));
}

TEST_F(ReportCommand, JsonOnStdout) {
  Outcome const result = kopt_report(std::to_string(run.value()) + " --json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out), to_json(report_of(run)));
}

TEST_F(ReportCommand, BadInputExitsWithTwoAndNamesIt) {
  Outcome result = kopt_report("99");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("run 99 is not in"), std::string::npos) << result.err;
  auto const unwritable = dir.path() / "missing" / "report.html";
  result = kopt_report(std::to_string(run.value()) + " -o " + unwritable.string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find(unwritable.string()), std::string::npos) << result.err;
  std::string const command = kopt.string() + " report 1 --store " + (dir.path() / "none.db").string() +
                              " 2>" + (dir.path() / "stderr").string();
  int const status = std::system(command.c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
  EXPECT_NE(test::read_text(dir.path() / "stderr").find("none.db"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "none.db")) << "a report never creates a store";
}

}  // namespace report_command_test
}  // namespace kopt
