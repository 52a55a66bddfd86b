// Progress of `kopt eval` / `kopt task check` on stderr: a redrawn bar on a terminal, one plain line per
// step otherwise (each with the seconds since the start), nothing with --json.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

#include "kopt/eval.hpp"

namespace kopt::cli {

enum class ProgressStyle { bar, lines, none };

ProgressStyle progress_style_for(bool json_output, bool stderr_is_terminal) noexcept;

// "[########............]  3/10  fast.cu: timing 'large'", cut to `width` columns (UTF-8 aware).
std::string render_progress_bar(EvalProgress const& progress, std::size_t width);
// "[3/10] fast.cu: timing 'large'"
std::string render_progress_line(EvalProgress const& progress);

// Seconds since the printer was made: the time stamp of lines mode (a log of a long run says where the time
// went). Tests pass their own.
using ProgressClock = std::function<double()>;

class ProgressPrinter {
 public:
  ProgressPrinter(std::ostream& stream, ProgressStyle style, std::size_t width, ProgressClock clock = {});
  ~ProgressPrinter();
  ProgressPrinter(ProgressPrinter const&) = delete;
  ProgressPrinter& operator=(ProgressPrinter const&) = delete;

  void update(EvalProgress const& progress);
  // Clears the bar so the report starts on a clean line; safe to call twice.
  void finish();

 private:
  std::ostream& stream_;
  ProgressStyle style_;
  std::size_t width_;
  std::string last_line_;
  bool bar_visible_ = false;
  ProgressClock clock_;
};

}  // namespace kopt::cli
