// The optimize options as a run records them (kopt.optimize/1): written when optimize or the source search
// creates a run, read back by --resume.
#include "run_options.hpp"

#include <fmt/format.h>

#include "kopt/runs.hpp"

namespace kopt {
namespace optimize_detail {

nlohmann::json options_json(OptimizeOptions const& options, std::string const& source) {
  return {{"schema", "kopt.optimize/1"},
          {"strategy", options.strategy},
          {"source_path", options.source_path.string()},
          {"source", source},
          {"flags", options.flags},
          {"confirm", options.confirm},
          {"search_memory", options.search_memory},
          {"objective", std::string(to_string(options.objective))},
          {"mcts",
           {{"exploration", options.mcts.exploration},
            {"max_backup_weight", options.mcts.max_backup_weight},
            {"widening_k", options.mcts.widening_k},
            {"widening_alpha", options.mcts.widening_alpha},
            {"root_widening_boost", options.mcts.root_widening_boost},
            {"depth_decay", options.mcts.depth_decay},
            {"dead_end_window", options.mcts.dead_end_window},
            {"prior_pseudo_count", options.mcts.prior_pseudo_count},
            {"prior_weight", options.mcts.prior_weight},
            {"roots_k", options.mcts.roots_k},
            {"roots_alpha", options.mcts.roots_alpha}}}};
}

namespace {

OptimizeOptions options_of(RunRequest const& request) {
  OptimizeOptions options;
  options.strategy = request.strategy;
  options.source_path = request.source_path;
  options.flags = request.flags;
  options.confirm = request.confirm;
  options.search_memory = request.search_memory;
  options.objective = request.objective;
  return options;
}

}  // namespace

Result<OptimizeOptions> options_from_json(nlohmann::json const& json, RunId run) {
  auto request = run_request_from_json(json, run);
  if (!request) return request.error();
  OptimizeOptions options = options_of(*request);
  if (json.contains("mcts")) {  // runs of older kopt used the defaults of their time
    auto const& m = json["mcts"];
    if (!m.is_object()) {
      return make_error(ErrorCode::invalid_spec,
                        fmt::format("run {}: options.mcts: expected an object of MCTS constants (not a kopt "
                                    "optimize run?)",
                                    run.value()));
    }
    MctsConfig& c = options.mcts;
    c.exploration = m.value("exploration", c.exploration);
    c.max_backup_weight = m.value("max_backup_weight", c.max_backup_weight);
    c.widening_k = m.value("widening_k", c.widening_k);
    c.widening_alpha = m.value("widening_alpha", c.widening_alpha);
    c.root_widening_boost = m.value("root_widening_boost", c.root_widening_boost);
    c.depth_decay = m.value("depth_decay", c.depth_decay);
    c.dead_end_window = m.value("dead_end_window", c.dead_end_window);
    c.prior_pseudo_count = m.value("prior_pseudo_count", c.prior_pseudo_count);
    c.prior_weight = m.value("prior_weight", c.prior_weight);
    c.roots_k = m.value("roots_k", c.roots_k);
    c.roots_alpha = m.value("roots_alpha", c.roots_alpha);
  }
  return options;
}

}  // namespace optimize_detail

Result<OptimizeRunInfo> load_optimize_run(Store& store, RunId run) {
  auto info = load_run_info(store, run);
  if (!info) return info.error();
  auto options = optimize_detail::options_from_json(info->request.document, run);
  if (!options) return options.error();
  options->seed = info->request.seed;
  if (info->request.max_evaluations) options->max_evaluations = *info->request.max_evaluations;
  options->max_wall_seconds = info->request.max_wall_seconds;
  OptimizeRunInfo result;
  result.id = info->id;
  result.status = std::move(info->status);
  result.task_name = std::move(info->task_name);
  result.task_dir = std::move(info->task_dir);
  result.source = std::move(info->request.source);
  result.options = std::move(*options);
  return result;
}

Result<RunLog> create_optimize_run(Store& store, TaskSpec const& task, std::string const& source,
                                   OptimizeOptions const& options) {
  Run run;
  run.task_name = task.name;
  run.task_dir = task.dir.string();
  run.options = optimize_detail::options_json(options, source);
  run.seed = options.seed;
  run.budget = {{"evaluations", options.max_evaluations}, {"seconds", options.max_wall_seconds}};
  if (options.session)
    run.session = SessionPart{*options.session, options.session_strategy, options.session_phase};
  std::string family;
  if (options.search_memory) {
    // Action gains of another objective would mislead MCTS: each objective learns apart from runtime.
    family = search_memory_family(task);
    if (options.objective != OptimizeObjective::runtime)
      family += "#objective=" + std::string(to_string(options.objective));
  }
  return RunLog::create(store, std::move(run), family);
}

}  // namespace kopt
