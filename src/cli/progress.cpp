#include "cli/progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <utility>

namespace kopt::cli {
namespace {

constexpr std::size_t kBarCells = 20;
constexpr std::string_view kClearToEnd = "\x1b[K";

// Cuts UTF-8 text to at most `columns` code points.
std::string cut_to_width(std::string text, std::size_t columns) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U) continue;
    if (seen == columns) {
      text.resize(i);
      break;
    }
    ++seen;
  }
  return text;
}

}  // namespace

ProgressStyle progress_style_for(bool json_output, bool stderr_is_terminal) noexcept {
  if (json_output) return ProgressStyle::none;
  return stderr_is_terminal ? ProgressStyle::bar : ProgressStyle::lines;
}

std::string render_progress_bar(EvalProgress const& progress, std::size_t width) {
  std::size_t total = progress.total;
  std::size_t done = std::min(progress.done, total);
  std::size_t filled = total == 0 ? 0 : done * kBarCells / total;
  std::string line =
      fmt::format("[{}{}] {:>{}}/{}", std::string(filled, '#'), std::string(kBarCells - filled, '.'), done,
                  fmt::formatted_size("{}", total), total);
  if (!progress.what.empty()) line += "  " + progress.what;
  return cut_to_width(std::move(line), width);
}

std::string render_progress_line(EvalProgress const& progress) {
  std::string line = fmt::format("[{}/{}]", progress.done, progress.total);
  if (!progress.what.empty()) line += " " + progress.what;
  return line;
}

ProgressPrinter::ProgressPrinter(std::ostream& stream, ProgressStyle style, std::size_t width,
                                 ProgressClock clock)
    : stream_(stream), style_(style), width_(width > 1 ? width - 1 : 1), clock_(std::move(clock)) {
  if (!clock_) {
    auto const start = std::chrono::steady_clock::now();
    clock_ = [start] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
  }
}

ProgressPrinter::~ProgressPrinter() {
  finish();
}

void ProgressPrinter::update(EvalProgress const& progress) {
  switch (style_) {
    case ProgressStyle::none: return;
    case ProgressStyle::lines: {
      std::string line = render_progress_line(progress);
      if (line == last_line_) return;
      last_line_ = line;
      stream_ << fmt::format("{:7.1f} s  ", clock_()) << line << '\n' << std::flush;
      return;
    }
    case ProgressStyle::bar: {
      stream_ << '\r' << render_progress_bar(progress, width_) << kClearToEnd << std::flush;
      bar_visible_ = true;
      return;
    }
  }
}

void ProgressPrinter::finish() {
  if (!bar_visible_) return;
  stream_ << '\r' << kClearToEnd << std::flush;
  bar_visible_ = false;
}

}  // namespace kopt::cli
