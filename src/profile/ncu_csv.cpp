// Nsight Compute CSV: the raw page (one row per launch, one column per metric, a units row) and the
// long format (one row per metric). Layouts and gotchas: docs/profiling.md and
// shared/notes/profiling.md §1.3.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <unordered_map>

#include "kopt/profile.hpp"
#include "profile/csv_line.hpp"

namespace kopt {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Columns that describe a launch, not a measurement (both layouts).
constexpr std::array<std::string_view, 12> kLaunchColumns{
    "ID",      "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time",
    "Context", "Stream",     "Block Size",   "Grid Size", "Device",      "CC",
};

bool is_launch_column(std::string_view name) {
  return std::find(kLaunchColumns.begin(), kLaunchColumns.end(), name) != kLaunchColumns.end();
}

enum class Layout { raw, long_format };

struct Header {
  Layout layout = Layout::raw;
  std::vector<std::string> columns;
  std::vector<std::string> units;  // raw layout: the units row, when seen
  std::optional<std::size_t> id_column;
  std::optional<std::size_t> kernel_column;
  std::optional<std::size_t> block_column;
  std::optional<std::size_t> grid_column;
  std::size_t metric_name_column = 0;  // long layout only
  std::size_t metric_unit_column = 0;
  std::size_t metric_value_column = 0;
};

std::optional<std::size_t> column_index(std::vector<std::string> const& columns, std::string_view name) {
  auto const found = std::find(columns.begin(), columns.end(), name);
  if (found == columns.end()) return std::nullopt;
  return static_cast<std::size_t>(found - columns.begin());
}

// A header row: raw layout when it names "Kernel Name" and no "Metric Name"; long layout when it names
// "Metric Name" and "Metric Value".
std::optional<Header> as_header(std::vector<std::string> const& fields) {
  Header header;
  header.columns = fields;
  header.id_column = column_index(fields, "ID");
  header.kernel_column = column_index(fields, "Kernel Name");
  header.block_column = column_index(fields, "Block Size");
  header.grid_column = column_index(fields, "Grid Size");
  auto const metric_name = column_index(fields, "Metric Name");
  auto const metric_value = column_index(fields, "Metric Value");
  if (metric_name && metric_value) {
    header.layout = Layout::long_format;
    header.metric_name_column = *metric_name;
    header.metric_value_column = *metric_value;
    header.metric_unit_column = column_index(fields, "Metric Unit").value_or(fields.size());
    return header;
  }
  if (header.kernel_column && !metric_name && fields.size() > 1) {
    header.layout = Layout::raw;
    return header;
  }
  return std::nullopt;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  std::int64_t value = 0;
  auto const [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "(256, 1, 1)" -> {256, 1, 1}; one to three components.
std::optional<LaunchDim> parse_dim(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return std::nullopt;
  text = text.substr(1, text.size() - 2);
  std::array<std::int64_t, 3> values{1, 1, 1};
  std::size_t count = 0;
  while (true) {
    auto const comma = text.find(',');
    auto const value = parse_int(text.substr(0, comma));
    if (!value || count == values.size()) return std::nullopt;
    values[count++] = *value;
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return LaunchDim{values[0], values[1], values[2]};
}

// A new row with the launch columns of `fields` filled in.
NcuKernelRow launch_row(Header const& header, std::vector<std::string> const& fields) {
  NcuKernelRow row;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (is_launch_column(header.columns[i]) && !fields[i].empty()) {
      row.text_fields.emplace(header.columns[i], fields[i]);
    }
  }
  if (header.kernel_column) row.kernel_name = fields[*header.kernel_column];
  if (header.id_column) row.id = parse_int(fields[*header.id_column]);
  if (header.block_column) row.block = parse_dim(fields[*header.block_column]);
  if (header.grid_column) row.grid = parse_dim(fields[*header.grid_column]);
  return row;
}

// Records one metric value: numbers in `metrics`, anything else non-empty in `text_fields`. The first
// value of a name wins (the long layout can repeat a label across sections).
void add_metric(NcuKernelRow& row, std::string const& name, std::string const& value, std::string_view unit) {
  if (name.empty()) return;
  if (auto const number = parse_ncu_number(value)) {
    row.metrics.emplace(name, *number);
  } else if (!value.empty()) {
    row.text_fields.emplace(name, value);
  }
  if (!unit.empty()) row.units.emplace(name, std::string(unit));
}

bool launch_columns_empty(Header const& header, std::vector<std::string> const& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (is_launch_column(header.columns[i]) && !fields[i].empty()) return false;
  }
  return true;
}

class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source) {}

  void line(std::string_view text, int number) {
    if (text.starts_with("==")) {
      note_diagnostic(text);
      return;
    }
    if (!text.starts_with('"')) return;  // ncu quotes every field; anything else is application output
    auto fields = detail::split_csv_line(text);
    if (!fields) return;
    if (auto header = as_header(*fields)) {
      if (!first_header_line_) first_header_line_ = number;
      header_ = std::move(header);
      long_rows_.clear();
      return;
    }
    if (!header_ || !fits_header(*fields)) {
      ++skipped_rows_;
      return;
    }
    if (header_->layout == Layout::raw) {
      raw_row(*fields);
    } else {
      long_row(*fields);
    }
  }

  Result<std::vector<NcuKernelRow>> finish(bool empty_input) && {
    if (empty_input) {
      return make_error(
          ErrorCode::invalid_argument,
          fmt::format("{}: empty; expected Nsight Compute CSV (ncu --csv --page raw --print-units "
                      "base)",
                      source_));
    }
    if (!first_header_line_) {
      return make_error(ErrorCode::invalid_argument,
                        fmt::format("{}: no header row with metric names: expected a quoted CSV row with a "
                                    "\"Kernel Name\" column and one column per metric (ncu --csv --page raw) "
                                    "or with \"Metric Name\" and \"Metric Value\" columns (ncu --csv){}",
                                    source_, ncu_said()));
    }
    if (rows_.empty()) {
      return make_error(
          ErrorCode::invalid_argument,
          fmt::format("{}: header row at line {} but no kernel rows: expected one row per "
                      "profiled launch (did --kernel-name / --launch-skip match a launch?){}{}",
                      source_, *first_header_line_,
                      skipped_rows_ > 0 ? fmt::format("; {} row(s) had a different number of fields than "
                                                      "the header",
                                                      skipped_rows_)
                                        : std::string(),
                      ncu_said()));
    }
    return std::move(rows_);
  }

 private:
  // Whether `fields` is a row under the current header; pads or trims it to the header's width. Raw
  // rows have exactly one field per column; long-layout rows end right after "Metric Value" when the
  // rule columns are empty (ncu 2025.3 prints `...,"Metric Value",` then). A trailing empty field
  // (a comma at the end of the line) is dropped.
  bool fits_header(std::vector<std::string>& fields) const {
    std::size_t const width = header_->columns.size();
    if (fields.size() == width + 1 && fields.back().empty()) fields.pop_back();
    if (fields.size() == width) return true;
    if (header_->layout == Layout::raw || fields.size() > width ||
        fields.size() <= header_->metric_value_column) {
      return false;
    }
    fields.resize(width);
    return true;
  }

  void raw_row(std::vector<std::string> const& fields) {
    Header& header = *header_;
    if (launch_columns_empty(header, fields)) {  // the units row
      header.units = fields;
      return;
    }
    NcuKernelRow row = launch_row(header, fields);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (is_launch_column(header.columns[i])) continue;
      std::string_view const unit = i < header.units.size() ? std::string_view(header.units[i]) : "";
      add_metric(row, header.columns[i], fields[i], unit);
    }
    rows_.push_back(std::move(row));
  }

  void long_row(std::vector<std::string> const& fields) {
    Header const& header = *header_;
    std::string const& name = fields[header.metric_name_column];
    if (name.empty()) return;  // a rule row (Rule Name, Rule Description, ...)
    std::string key;
    if (header.id_column) {
      key = fields[*header.id_column];
    } else if (header.kernel_column) {
      key = fields[*header.kernel_column];
    }
    auto [slot, inserted] = long_rows_.try_emplace(key, rows_.size());
    if (inserted) rows_.push_back(launch_row(header, fields));
    std::string_view const unit =
        header.metric_unit_column < fields.size() ? std::string_view(fields[header.metric_unit_column]) : "";
    add_metric(rows_[slot->second], name, fields[header.metric_value_column], unit);
  }

  void note_diagnostic(std::string_view text) {
    if (text.starts_with("==ERROR==") && !first_error_) first_error_ = std::string(text);
    if (text.starts_with("==WARNING==") && !first_warning_) first_warning_ = std::string(text);
  }

  std::string ncu_said() const {
    if (first_error_) return "; ncu said: " + *first_error_;
    if (first_warning_) return "; ncu said: " + *first_warning_;
    return {};
  }

  std::string_view source_;
  std::optional<Header> header_;
  std::vector<NcuKernelRow> rows_;
  std::unordered_map<std::string, std::size_t> long_rows_;  // long layout: launch key -> index in rows_
  std::optional<int> first_header_line_;
  int skipped_rows_ = 0;
  std::optional<std::string> first_error_;
  std::optional<std::string> first_warning_;
};

}  // namespace

Result<std::vector<NcuKernelRow>> parse_ncu_raw_csv(std::string_view text, std::string_view source) {
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  Parser parser(source);
  bool empty_input = true;
  int number = 0;
  while (!text.empty()) {
    auto const end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto const first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    empty_input = false;
    parser.line(line, number);
  }
  return std::move(parser).finish(empty_input);
}

}  // namespace kopt
