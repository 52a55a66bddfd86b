#include "cli/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace kopt::cli {

bool is_terminal(std::FILE* stream) noexcept {
  return ::isatty(::fileno(stream)) == 1;
}

std::size_t terminal_width(std::FILE* stream, std::size_t fallback) noexcept {
  winsize size{};
  if (::ioctl(::fileno(stream), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return fallback;
}

bool want_color(bool no_color_flag) noexcept {
  if (no_color_flag) return false;
  char const* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return is_terminal(stdout);
}

}  // namespace kopt::cli
