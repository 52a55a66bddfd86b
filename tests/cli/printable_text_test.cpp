// Values quoted in kopt's messages reach a terminal: control sequences are shown, not obeyed; bytes that
// are not UTF-8 are shown as bytes; very long lines are shortened in the middle.
#include "cli/printable_text.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cli/error_output.hpp"

namespace kopt::cli {
namespace printable_text_test {

TEST(PrintableText, KeepsPlainTextNewlinesTabsAndUtf8) {
  EXPECT_EQ(printable_text("plain text"), "plain text");
  EXPECT_EQ(printable_text("two\nlines\tand a tab"), "two\nlines\tand a tab");
  EXPECT_EQ(printable_text("µs, ≥ 0.9x, 😀"), "µs, ≥ 0.9x, 😀");
  EXPECT_EQ(printable_text(""), "");
  EXPECT_EQ(printable_text("ends with a newline\n"), "ends with a newline\n");
}

TEST(PrintableText, ShowsControlCharactersInsteadOfSendingThem) {
  EXPECT_EQ(printable_text("red \x1b[31mtext\x1b[0m"), "red \\x1b[31mtext\\x1b[0m");
  EXPECT_EQ(printable_text("over\rwrite"), "over\\x0dwrite");
  EXPECT_EQ(printable_text(std::string("nul\0byte", 8)), "nul\\x00byte");
  EXPECT_EQ(printable_text("bell\a del\x7f"), "bell\\x07 del\\x7f");
  EXPECT_EQ(printable_text("csi \xc2\x9b"
                           "2J"),
            "csi \\u009b2J");                                     // C1 control: some terminals obey it
  EXPECT_EQ(printable_text("nbsp \xc2\xa0."), "nbsp \xc2\xa0.");  // U+00A0 is printable
}

TEST(PrintableText, ShowsBytesThatAreNotUtf8) {
  EXPECT_EQ(printable_text("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable_text("cut \xe2\x89"), "cut \\xe2\\x89");            // a sequence cut short
  EXPECT_EQ(printable_text("\xc0\xaf"), "\\xc0\\xaf");                    // an overlong '/'
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(printable_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(printable_text("\x80 stray"), "\\x80 stray");
}

TEST(PrintableText, ShortensVeryLongLinesInTheMiddle) {
  std::string const value(70000, 'a');
  auto const shown = printable_text("bad value '" + value + "' here\nnext line", 100);
  EXPECT_LT(shown.size(), 200U);
  EXPECT_EQ(shown.rfind("bad value 'aaa", 0), 0U) << shown;
  EXPECT_NE(shown.find("...(69917 characters left out)..."), std::string::npos) << shown;
  EXPECT_NE(shown.find("aa' here\nnext line"), std::string::npos) << shown;
  EXPECT_EQ(printable_text(std::string(100, 'b'), 100), std::string(100, 'b'));  // at the limit: whole
  // Counted in characters: a multi-byte character is never cut.
  std::string euros;
  for (int i = 0; i < 300; ++i) euros += "€";
  auto const cut = printable_text(euros, 100);
  EXPECT_EQ(cut.find("\\x"), std::string::npos) << cut;
}

TEST(PrintableText, ErrorsOnTheTerminalArePrintableAndWholeInJson) {
  std::ostringstream out;
  std::ostringstream err;
  Error const error =
      make_error(ErrorCode::not_found, "no task at '\x1b]0;owned\x07" + std::string(5000, 'x') + "'");
  report_error(error, ExitCode::usage, true, out, err);
  EXPECT_EQ(err.str().find('\x1b'), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("\\x1b]0;owned\\x07"), std::string::npos);
  EXPECT_LT(err.str().size(), 1200U);
  EXPECT_NE(out.str().find(std::string(5000, 'x')), std::string::npos);  // the document keeps it whole
}

TEST(PrintableText, WarningsAreShownAsErrorsAre) {
  std::ostringstream err;
  report_warning("setting from '\x1b[2Jkopt.toml'", err);
  EXPECT_EQ(err.str(), "kopt: warning: setting from '\\x1b[2Jkopt.toml'\n");
}

}  // namespace printable_text_test
}  // namespace kopt::cli
