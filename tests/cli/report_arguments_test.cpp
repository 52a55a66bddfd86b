#include "cli/report_arguments.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "cli/arguments.hpp"
#include "cli/command_registry.hpp"

namespace kopt::cli {
namespace report_arguments_test {

ParsedCommandLine parse(std::vector<char const*> args, std::string* out_text = nullptr) {
  args.insert(args.begin(), "kopt");
  std::ostringstream out;
  std::ostringstream err;
  auto parsed = parse_command_line(static_cast<int>(args.size()), args.data(), out, err, cli_commands());
  if (out_text != nullptr) *out_text = out.str();
  return parsed;
}

TEST(ReportArguments, TakesEveryOption) {
  auto parsed = parse({"report", "3", "-o", "r.html", "--format", "md", "--store", "x.db", "--json"});
  ASSERT_TRUE(parsed.arguments);
  EXPECT_EQ(parsed.arguments->command, "report");
  ReportArgs const& a = parsed.arguments->report;
  EXPECT_EQ(a.run, 3);
  EXPECT_EQ(a.out, "r.html");
  EXPECT_EQ(a.format, "md");
  EXPECT_EQ(a.store, "x.db");
  EXPECT_TRUE(a.json);
}

TEST(ReportArguments, BadValuesExitWithTwo) {
  EXPECT_EQ(parse({"report"}).exit_code, 2);
  EXPECT_EQ(parse({"report", "0"}).exit_code, 2);
  EXPECT_EQ(parse({"report", "x"}).exit_code, 2);
  EXPECT_EQ(parse({"report", "3", "--format", "pdf"}).exit_code, 2);
}

TEST(ReportArguments, HelpHasExamples) {
  std::string out;
  auto parsed = parse({"report", "--help"}, &out);
  EXPECT_FALSE(parsed.arguments);
  EXPECT_EQ(parsed.exit_code, 0);
  EXPECT_NE(out.find("kopt report 3 -o report.html"), std::string::npos);
  EXPECT_NE(out.find("--format"), std::string::npos);
}

TEST(ReportArguments, FormatFromFlagThenExtensionThenDefault) {
  auto format = [](std::string out, std::string flag) {
    ReportArgs args;
    args.out = std::move(out);
    args.format = std::move(flag);
    return report_format_for(args);
  };
  EXPECT_EQ(*format("", ""), ReportFormat::markdown);  // stdout: Markdown
  EXPECT_EQ(*format("", "html"), ReportFormat::html);
  EXPECT_EQ(*format("r.html", ""), ReportFormat::html);
  EXPECT_EQ(*format("r.HTM", ""), ReportFormat::html);
  EXPECT_EQ(*format("r.md", ""), ReportFormat::markdown);
  EXPECT_EQ(*format("report", ""), ReportFormat::html);
  EXPECT_EQ(*format("r.txt", ""), ReportFormat::html);
  EXPECT_EQ(*format("r.html", "md"), ReportFormat::markdown);
  auto bad = format("r.html", "pdf");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(bad.error().message.find("--format"), std::string::npos);
}

}  // namespace report_arguments_test
}  // namespace kopt::cli
