// The git commit a corpus of problems was read at, for the header of `kopt bench --torch`'s table.
#include <chrono>

#include "kopt/child_process.hpp"
#include "kopt/suite_bench.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

// git's stdout for `git -C folder args...` (trailing newlines removed), nullopt when it fails.
std::optional<std::string> git_output(std::filesystem::path const& git, std::filesystem::path const& folder,
                                      std::vector<std::string> const& args) {
  ProcessSpec spec;
  spec.argv = {git.string(), "-C", folder.string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.stderr_target = StderrTarget::pipe;
  CommunicateOptions options;
  options.timeout = std::chrono::seconds(20);
  auto outcome = run_process(spec, options);
  if (!outcome || outcome->timed_out || !outcome->exit.exited || outcome->exit.code != 0) return std::nullopt;
  std::string text = outcome->output;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace

std::string corpus_commit(std::filesystem::path const& path) {
  std::error_code ec;
  std::filesystem::path const absolute = std::filesystem::absolute(path, ec);
  std::filesystem::path const folder =
      std::filesystem::is_directory(absolute, ec) ? absolute : absolute.parent_path();
  auto const git = find_program("git");
  if (!git) return "-";
  auto const commit = git_output(*git, folder, {"rev-parse", "--short=12", "HEAD"});
  if (!commit || commit->empty()) return "-";
  auto const changes = git_output(*git, folder, {"status", "--porcelain", "--", "."});
  return *commit + (changes && !changes->empty() ? " + uncommitted changes" : "");
}

}  // namespace kopt
