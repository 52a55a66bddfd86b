// From command-line values to what the evaluator needs: checks that name the option and what was
// expected, so mistakes end with exit code 2 before any GPU work starts.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "kopt/eval.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

// "--seed": a decimal unsigned 64-bit integer; empty means unset.
Result<std::optional<std::uint64_t>> parse_seed(std::string const& text);
// "--sizes a,b": names without blanks, no empty entries, no repeats.
Result<std::vector<std::string>> parse_size_list(std::string const& text);
// Every requested size must exist in the task; the error lists the sizes the task has.
Status check_size_names(std::vector<std::string> const& requested, std::vector<std::string> const& known,
                        std::string const& task_name);
// "--arch": sm_XY, sm_XYZ, optionally with an a/f suffix (sm_90a).
Status check_arch(std::string const& arch);
// "--flag": one compiler flag starting with '-'.
Status check_flag(std::string const& flag);
// "--gencode": arch=compute_XY,code=... as nvcc takes it.
Status check_gencode(std::string const& gencode);
// "--out": a file whose folder exists and which is not a folder itself.
Status check_output_path(std::filesystem::path const& path);

// The worker path from $KOPT_WORKER (empty/unset: the default next to kopt).
std::filesystem::path worker_path_from_env(char const* value);

// The screen-tier evaluator options of a search (`kopt optimize`, `kopt bench`): worker from $KOPT_WORKER.
EvalOptions search_eval_options(std::uint64_t seed, int device, std::string const& arch);
// "sm_90a" -> 90, "" -> 0 (unknown); for the strategy library's min_arch.
int arch_number(std::string const& arch);

Result<EvalOptions> eval_options_from(EvalArgs const& args, std::filesystem::path const& worker_path);
Result<EvalOptions> task_check_options_from(TaskCheckArgs const& args,
                                            std::filesystem::path const& worker_path);

}  // namespace kopt::cli
