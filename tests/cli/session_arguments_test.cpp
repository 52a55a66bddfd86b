// `kopt report` and `kopt export` take a run id or `--session ID` (docs/report.md, "A library session"):
// exactly one of the two.
#include <gtest/gtest.h>

#include "cli/parse_support.hpp"

namespace kopt::cli {
namespace session_arguments_test {

using test::parse;

TEST(SessionArguments, ReportAndExportTakeASessionInsteadOfARun) {
  auto report = parse({"report", "--session", "3", "-o", "s.html"});
  ASSERT_TRUE(report.parsed.arguments) << report.err;
  EXPECT_EQ(report.parsed.arguments->command, "report");
  EXPECT_EQ(report.parsed.arguments->report.session, 3);
  EXPECT_EQ(report.parsed.arguments->report.run, 0);
  auto exported = parse({"export", "--session", "2", "-o", "best.cu"});
  ASSERT_TRUE(exported.parsed.arguments) << exported.err;
  EXPECT_EQ(exported.parsed.arguments->command, "export");
  EXPECT_EQ(exported.parsed.arguments->export_run.session, 2);
  EXPECT_EQ(exported.parsed.arguments->export_run.run, 0);
}

TEST(SessionArguments, ExactlyOneOfARunAndASession) {
  for (auto const& args : std::vector<std::vector<char const*>>{
           {"report"},
           {"report", "3", "--session", "3"},
           {"report", "--session", "0"},
           {"report", "--session", "s3"},
           {"export", "-o", "best.cu"},
           {"export", "3", "--session", "3", "-o", "best.cu"},
           {"export", "--session", "0", "-o", "best.cu"},
       }) {
    auto const result = parse(args);
    EXPECT_EQ(result.parsed.exit_code, 2) << args[0] << " " << (args.size() > 1 ? args[1] : "");
    EXPECT_FALSE(result.parsed.arguments);
  }
  auto const neither = parse({"report"});
  EXPECT_NE(neither.err.find("expected a run id or --session ID"), std::string::npos) << neither.err;
}

}  // namespace session_arguments_test
}  // namespace kopt::cli
