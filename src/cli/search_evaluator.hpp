// Where a search's candidates are evaluated: this host's GPUs (GpuPoolCandidateEvaluator over one
// KoptCandidateEvaluator per GPU), or the evaluation farm's workers when a queue is given
// (FarmCandidateEvaluator, docs/distributed.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/evaluator_options.hpp"
#include "cli/exit_code.hpp"
#include "kopt/optimize.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

struct SearchEvaluatorRequest {
  EvaluatorChoice where;  // --device / --gpus / --queue
  std::uint64_t seed = 0;
  std::string arch;
};

// `--gpus` as device indices: nullopt for "all"; the list in the order given (its first is the designated
// GPU). Error invalid_argument naming --gpus: not 'all' nor indices separated by commas, or an index twice.
Result<std::optional<std::vector<int>>> parse_gpu_list(std::string_view text);

// Errors: invalid_argument (a queue URL or a --gpus list that cannot be used, --gpus with --queue or
// --device), and what the evaluator's start says (no GPU, the queue unreachable, no worker in the farm).
// `notes`: what the user should know (GPUs of another model left out).
Result<std::unique_ptr<CandidateEvaluator>> make_search_evaluator(SearchEvaluatorRequest const& request,
                                                                  std::vector<std::string>& notes);
// Whose fault make_search_evaluator's error is, for the exit code: the command line's (invalid_argument) or
// the machine's (no GPU, the queue unreachable, ...).
ErrorOrigin evaluator_error_origin(Error const& error);

}  // namespace kopt::cli
