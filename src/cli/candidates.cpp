#include "cli/candidates.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>

namespace kopt::cli {

Result<std::vector<CandidateSource>> read_candidates(std::vector<std::string> const& paths) {
  if (paths.empty()) return make_error(ErrorCode::invalid_argument, "no candidate files given");
  std::vector<CandidateSource> sources;
  std::map<std::string, int> name_counts;
  for (auto const& text : paths) {
    std::filesystem::path path(text);
    std::error_code ec;
    auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
      return make_error(ErrorCode::not_found, fmt::format("candidate '{}': no such file", text));
    }
    if (!std::filesystem::is_regular_file(status)) {
      return make_error(ErrorCode::io_error, fmt::format("candidate '{}': not a regular file", text));
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (!in || in.bad())
      return make_error(ErrorCode::io_error, fmt::format("candidate '{}': cannot be read", text));
    if (buffer.str().empty()) {
      return make_error(ErrorCode::invalid_argument, fmt::format("candidate '{}': the file is empty", text));
    }
    for (auto const& earlier : sources) {
      if (std::filesystem::equivalent(earlier.path, path, ec)) {
        return make_error(ErrorCode::invalid_argument, fmt::format("candidate '{}' is given twice", text));
      }
    }
    CandidateSource source;
    source.name = path.filename().string();
    source.path = path;
    source.source = buffer.str();
    ++name_counts[source.name];
    sources.push_back(std::move(source));
  }
  for (auto& source : sources) {
    if (name_counts[source.name] > 1) source.name = source.path.string();
  }
  return sources;
}

}  // namespace kopt::cli
