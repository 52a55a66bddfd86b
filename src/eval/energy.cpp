// Evaluator::measure_energy: the worker's `energy` request on one size case (docs/analysis.md, "Energy").
#include <fmt/format.h>

#include <chrono>

#include "eval/artifact_requests.hpp"
#include "eval/energy_reply.hpp"
#include "eval/evaluator_impl.hpp"
#include "kopt/eval.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"

namespace kopt {

Result<EnergyReport> Evaluator::measure_energy(TaskSpec const& task, CandidateSource const& candidate,
                                               EnergyOptions const& options) {
  auto const start = std::chrono::steady_clock::now();
  if (auto status = check_energy_options(options); !status) return status.error();
  EnergyReport report;
  report.task = task.name;
  report.device = device();
  report.window_s = options.window_s;
  report.cooldown_s = options.cooldown_s;
  report.trials = options.trials;
  SizeCase const* size = energy_size(task, options.size);
  if (size == nullptr) {
    return make_error(ErrorCode::invalid_argument,
                      options.size.empty()
                          ? fmt::format("task '{}' has no timed size case to measure", task.name)
                          : fmt::format("--size: task '{}' has no size case '{}'", task.name, options.size));
  }
  report.size = size->name;

  CandidatePlan const plan = plan_candidate(task, candidate, impl_->options.mode);
  report.candidate = plan.name;
  report.mode = plan.mode;
  auto finish = [&] {
    report.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return report;
  };
  if (!plan.request) {
    report.status = plan.failure_status;
    report.message = plan.failure;
    return finish();
  }
  impl_->compiles->submit(*plan.request);
  std::optional<TrustedArtifacts> trusted;
  if (options.reference) {
    auto built = build_trusted(*impl_->trusted_compiler, task);
    if (!built) return built.error();
    trusted = std::move(*built);
  }
  auto built = impl_->compiles->take(*plan.request);
  if (!built) return built.error();
  if (!built->ok) {
    report.status = CandidateStatus::compile_error;
    report.message = compile_failure_message(built->diagnostics);
    return finish();
  }

  worker::EnergyRequest request;
  request.selection = {task.dir.string(), {size->name}, impl_->options.seed.value_or(1)};
  request.timeout.ceiling_ms = impl_->options.timeout_ceiling_ms;
  request.window_s = options.window_s;
  request.cooldown_s = options.cooldown_s;
  request.trials = options.trials;
  request.candidate = artifact_ref(task, plan, built->artifact);
  if (trusted) request.reference = trusted->reference;
  // Progress events come before every window; the longest silence is sizing a window (a probe and a
  // graph replay) or one cooldown plus one window.
  double const silence_ms = (options.cooldown_s + 20.0 * options.window_s) * 1000.0 + 120000.0 +
                            2.0 * impl_->options.timeout_ceiling_ms;
  auto reply = impl_->worker->request(worker::to_json(request),
                                      std::chrono::milliseconds(static_cast<long long>(silence_ms)));
  if (!reply) return reply.error();
  if (auto status = apply_energy_reply(*reply, report); !status) return status.error();
  return finish();
}

}  // namespace kopt
