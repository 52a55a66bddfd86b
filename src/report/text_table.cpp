#include "report/text_table.hpp"

#include <algorithm>
#include <stdexcept>

namespace kopt::report_text {
namespace {

std::string_view escape_for(Style style) {
  switch (style) {
    case Style::none: return "";
    case Style::good: return "\x1b[32m";
    case Style::bad: return "\x1b[31;1m";
    case Style::warn: return "\x1b[33m";
    case Style::dim: return "\x1b[2m";
    case Style::bold: return "\x1b[1m";
  }
  return "";
}

}  // namespace

std::string styled(std::string_view text, Style style, bool color) {
  if (!color || style == Style::none || text.empty()) return std::string(text);
  std::string out(escape_for(style));
  out += text;
  out += "\x1b[0m";
  return out;
}

std::size_t display_width(std::string_view text) noexcept {
  std::size_t width = 0;
  for (char c : text) {
    // Count every byte that does not continue a UTF-8 sequence.
    if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U) ++width;
  }
  return width;
}

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<Cell> row) {
  if (row.size() > columns_.size()) throw std::logic_error("TextTable: row has more cells than columns");
  while (row.size() < columns_.size()) row.emplace_back("");
  rows_.push_back(std::move(row));
}

std::string TextTable::render(std::string_view indent, bool color) const {
  std::vector<std::size_t> widths(columns_.size(), 0);
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = display_width(columns_[c].header);
    for (auto const& row : rows_) widths[c] = std::max(widths[c], display_width(row[c].text));
  }
  auto render_line = [&](auto const& cell_at) {
    std::string line(indent);
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      Cell const& cell = cell_at(c);
      std::string padding(widths[c] - display_width(cell.text), ' ');
      if (c > 0) line += "  ";
      if (columns_[c].align == Align::right) line += padding;
      line += styled(cell.text, cell.style, color);
      if (columns_[c].align == Align::left) line += padding;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    line += '\n';
    return line;
  };
  std::vector<Cell> headers;
  for (auto const& column : columns_) headers.emplace_back(column.header, Style::bold);
  std::string out = render_line([&](std::size_t c) -> Cell const& { return headers[c]; });
  for (auto const& row : rows_) out += render_line([&](std::size_t c) -> Cell const& { return row[c]; });
  return out;
}

}  // namespace kopt::report_text
