#include "cheat_header.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

namespace kopt::testing {
namespace {

constexpr std::array<std::string_view, 4> kRequiredKeys{"expect", "defeats", "mode", "task"};
constexpr std::string_view kSanitizeKey = "expect-with-sanitize";

struct HeaderLine {
  std::string key;
  std::string value;
};

// "// key: value" -> {key, value}; nullopt for any other line.
std::optional<HeaderLine> split_header_line(std::string_view line) {
  if (!line.starts_with("// ")) return std::nullopt;
  line.remove_prefix(3);
  auto const colon = line.find(": ");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  std::string_view const key = line.substr(0, colon);
  bool const word =
      std::all_of(key.begin(), key.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
  if (!word) return std::nullopt;
  std::string_view value = line.substr(colon + 2);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.remove_suffix(1);
  return HeaderLine{std::string(key), std::string(value)};
}

Error header_error(std::filesystem::path const& file, std::string const& what) {
  return make_error(ErrorCode::invalid_spec, file.string() + ": cheat header: " + what);
}

Result<CandidateStatus> parse_status(std::filesystem::path const& file, HeaderLine const& line) {
  if (auto status = candidate_status_from_string(line.value)) return *status;
  return header_error(file, "'" + line.key + "' has unknown status '" + line.value +
                                "'; expected a name from include/kopt/candidate_status.hpp");
}

}  // namespace

Result<CheatHeader> parse_cheat_header(std::string const& text, std::filesystem::path const& file) {
  std::vector<HeaderLine> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    auto parsed = split_header_line(line);
    if (!parsed) break;
    lines.push_back(std::move(*parsed));
  }
  for (std::size_t i = 0; i < kRequiredKeys.size(); ++i) {
    if (i >= lines.size() || lines[i].key != kRequiredKeys[i]) {
      return header_error(file, "line " + std::to_string(i + 1) + " must be `// " +
                                    std::string(kRequiredKeys[i]) +
                                    ": ...`; expected the keys expect, defeats, mode, task in this order");
    }
    if (lines[i].value.empty()) {
      return header_error(file, "'" + lines[i].key + "' is empty; expected a value");
    }
  }

  CheatHeader header;
  header.file = file;
  auto expect = parse_status(file, lines[0]);
  if (!expect) return expect.error();
  header.expect = *expect;
  header.defeats = lines[1].value;
  if (lines[2].value == "kernel") {
    header.mode = CandidateMode::kernel;
  } else if (lines[2].value == "launcher") {
    header.mode = CandidateMode::launcher;
  } else {
    return header_error(file, "'mode' is '" + lines[2].value + "'; expected kernel or launcher");
  }
  header.task = lines[3].value;
  if (header.task.is_absolute()) {
    return header_error(file, "'task' is absolute; expected a path relative to the repository root");
  }
  for (std::size_t i = kRequiredKeys.size(); i < lines.size(); ++i) {
    if (lines[i].key != kSanitizeKey || header.expect_with_sanitize) {
      return header_error(file,
                          "unexpected key '" + lines[i].key + "' on line " + std::to_string(i + 1) +
                              "; expected at most one `// expect-with-sanitize: <status>` after 'task'");
    }
    auto status = parse_status(file, lines[i]);
    if (!status) return status.error();
    header.expect_with_sanitize = *status;
  }
  return header;
}

Result<CheatHeader> read_cheat_header(std::filesystem::path const& file) {
  std::ifstream in(file);
  if (!in) return make_error(ErrorCode::io_error, file.string() + ": cannot open cheat source");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_cheat_header(text.str(), file);
}

std::vector<std::filesystem::path> list_cheat_files(std::filesystem::path const& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".cu") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace kopt::testing
