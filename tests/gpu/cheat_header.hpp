// The comment header every adversarial kernel in tests/gpu/cheats/ starts with:
//   // expect: <status>                  verdict kopt must give (include/kopt/candidate_status.hpp)
//   // defeats: <which defence>          what the kernel is written to get past
//   // mode: kernel|launcher             how kopt must build and run it
//   // task: <task dir, relative to the repository root>
//   // expect-with-sanitize: <status>    optional: verdict under --sanitize
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/compile.hpp"
#include "kopt/result.hpp"

namespace kopt::testing {

struct CheatHeader {
  std::filesystem::path file;
  CandidateStatus expect = CandidateStatus::ok;
  std::string defeats;
  CandidateMode mode = CandidateMode::kernel;
  std::filesystem::path task;  // relative to the repository root
  std::optional<CandidateStatus> expect_with_sanitize;
};

// Parses the header from a file's text; `file` names it in error messages.
Result<CheatHeader> parse_cheat_header(std::string const& text, std::filesystem::path const& file);
// Reads and parses `file`.
Result<CheatHeader> read_cheat_header(std::filesystem::path const& file);
// Every *.cu directly in `dir`, sorted by name (empty when the folder is missing).
std::vector<std::filesystem::path> list_cheat_files(std::filesystem::path const& dir);

}  // namespace kopt::testing
