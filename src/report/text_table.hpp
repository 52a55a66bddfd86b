// Plain-text tables whose columns line up in a terminal: no box drawing, two spaces between columns,
// widths counted in UTF-8 code points (µ and ± are one column wide). Colour codes never count.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kopt::report_text {

enum class Align { left, right };

// ANSI styles for cells and lines (used only when colour was asked for).
enum class Style { none, good, bad, warn, dim, bold };
std::string styled(std::string_view text, Style style, bool color);

struct Cell {
  std::string text;
  Style style = Style::none;
  Cell(std::string value) : text(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Cell(char const* value) : text(value) {}             // NOLINT(google-explicit-constructor)
  Cell(std::string value, Style cell_style) : text(std::move(value)), style(cell_style) {}
};

struct Column {
  std::string header;
  Align align = Align::left;
};

class TextTable {
 public:
  explicit TextTable(std::vector<Column> columns);
  // Rows shorter than the header are padded with empty cells.
  void add_row(std::vector<Cell> row);
  // Every line starts with `indent`; trailing spaces are trimmed.
  std::string render(std::string_view indent, bool color) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<Cell>> rows_;
};

// Display width of UTF-8 text: one column per code point.
std::size_t display_width(std::string_view text) noexcept;

}  // namespace kopt::report_text
