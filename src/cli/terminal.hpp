// What the terminal can show: whether a stream is a terminal, how wide it is, whether colour is wanted.
#pragma once

#include <cstddef>
#include <cstdio>

namespace kopt::cli {

bool is_terminal(std::FILE* stream) noexcept;
// Columns of the terminal behind `stream`; `fallback` when unknown.
std::size_t terminal_width(std::FILE* stream, std::size_t fallback = 80) noexcept;
// Colour on stdout: a terminal, not --no-color, and $NO_COLOR unset (https://no-color.org).
bool want_color(bool no_color_flag) noexcept;

}  // namespace kopt::cli
