// Text from the outside (paths, option values, fields of a task file) quoted in what kopt prints on a
// terminal: made safe to print and short enough to read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kopt::cli {

// `text` as a terminal should show it: control characters other than newline and tab (ESC, carriage
// return, backspace, DEL, the C1 controls U+0080-U+009F) and bytes that are not UTF-8 are written as
// \xNN or \uNNNN, so a quoted value cannot move the cursor, recolour or clear the screen; a line longer
// than `max_line_chars` characters keeps its start and end with "...(N characters left out)..." between.
std::string printable_text(std::string_view text, std::size_t max_line_chars = 1000);

}  // namespace kopt::cli
