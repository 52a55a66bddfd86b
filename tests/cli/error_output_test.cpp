#include "cli/error_output.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace kopt::cli {
namespace error_output_test {

TEST(ErrorOutput, PlainErrorGoesToStderrOnly) {
  std::ostringstream out;
  std::ostringstream err;
  int code = report_error(make_error(ErrorCode::no_gpu, "no CUDA device found"), ExitCode::environment, false,
                          out, err);
  EXPECT_EQ(code, 3);
  EXPECT_EQ(err.str(), "kopt: error: no CUDA device found\n");
  EXPECT_TRUE(out.str().empty());
}

TEST(ErrorOutput, JsonErrorOnStdout) {
  std::ostringstream out;
  std::ostringstream err;
  report_error(make_error(ErrorCode::invalid_spec, "task.toml: [[sizes]] 'odd': N is missing"),
               ExitCode::usage, true, out, err);
  auto json = nlohmann::json::parse(out.str());
  EXPECT_EQ(json["error"]["code"], "invalid_spec");
  EXPECT_EQ(json["error"]["message"], "task.toml: [[sizes]] 'odd': N is missing");
  EXPECT_EQ(json["error"]["exit_code"], 2);
  EXPECT_EQ(err.str(), "kopt: error: task.toml: [[sizes]] 'odd': N is missing\n");
}

// A message quoting invalid UTF-8 from the input (a task field, a signature) still gives a JSON document:
// the bad bytes become U+FFFD (nlohmann's dump used to throw type_error 316 here, an internal error).
TEST(ErrorOutput, InvalidUtf8InAMessageStillGivesAJsonDocument) {
  std::ostringstream out;
  std::ostringstream err;
  std::string const message = "task.toml: [entry] signature: 'void f(\xff\xfe)' does not parse";
  EXPECT_EQ(report_error(make_error(ErrorCode::invalid_spec, message), ExitCode::usage, true, out, err), 2);
  auto json = nlohmann::json::parse(out.str());
  EXPECT_EQ(json["error"]["message"], "task.toml: [entry] signature: 'void f(\uFFFD\uFFFD)' does not parse");
  // The terminal gets the bytes shown as bytes (printable_text), never raw.
  EXPECT_EQ(err.str(), "kopt: error: task.toml: [entry] signature: 'void f(\\xff\\xfe)' does not parse\n");
}

TEST(ErrorOutput, InternalErrorsAskForABugReport) {
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(report_error(make_error(ErrorCode::internal_error, "boom"), ExitCode::internal, false, out, err),
            4);
  EXPECT_NE(err.str().find("please report it"), std::string::npos);
}

}  // namespace error_output_test
}  // namespace kopt::cli
