// `kopt profile TASK CANDIDATE`: classification and findings of one call under Nsight Compute.
#include <fmt/format.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/candidates.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "cli/options.hpp"
#include "kopt/profile_candidate.hpp"

namespace kopt::cli {
namespace {

using nlohmann::json;

json evidence_json(Evidence const& evidence) {
  json out = json::object();
  for (auto const& [name, value] : evidence) out[name] = value;
  return out;
}

json to_json(CandidateProfile const& p) {
  json findings = json::array();
  for (auto const& f : p.findings) {
    findings.push_back({{"tool", f.tool},
                        {"severity", std::string(to_string(f.severity))},
                        {"explanation", f.explanation},
                        {"strategies", f.strategies},
                        {"evidence", evidence_json(f.evidence)}});
  }
  json classification{{"bottleneck", std::string(to_string(p.classification.bottleneck))},
                      {"basis", std::string(to_string(p.classification.basis))},
                      {"summary", p.classification.summary},
                      {"evidence", evidence_json(p.classification.evidence)}};
  if (p.classification.memory_level)
    classification["memory_level"] = std::string(to_string(*p.classification.memory_level));
  return json{{"schema", "kopt.profile/1"},
              {"task", p.task},
              {"candidate", p.candidate},
              {"size", p.size},
              {"status", std::string(to_string(p.status))},
              {"message", p.message},
              {"kernels", p.kernels},
              {"main_kernel", p.main_kernel},
              {"classification", classification},
              {"findings", findings},
              {"metrics", evidence_json(p.metrics)},
              {"commands", p.commands},
              {"notes", p.notes},
              {"wall_ms", p.wall_ms}};
}

std::string render(CandidateProfile const& p) {
  std::string out = fmt::format("task       {}\ncandidate  {}\nsize       {}\n", p.task, p.candidate, p.size);
  if (p.status != CandidateStatus::ok) {
    return out + fmt::format("status     {}: {}\n", to_string(p.status), p.message);
  }
  out +=
      fmt::format("kernels    {}{}\n", p.main_kernel,
                  p.kernels.size() > 1 ? fmt::format(" (longest of {})", p.kernels.size()) : std::string());
  out += fmt::format("\nbottleneck {}{}\n  {}\n", to_string(p.classification.bottleneck),
                     p.classification.memory_level
                         ? fmt::format(" ({})", to_string(*p.classification.memory_level))
                         : std::string(),
                     p.classification.summary);
  if (p.findings.empty()) out += "\nno findings: nothing the tools look for stands out\n";
  for (auto const& f : p.findings) {
    out += fmt::format("\n[{}] {}\n  {}\n", to_string(f.severity), f.tool, f.explanation);
    if (!f.strategies.empty()) out += fmt::format("  try: {}\n", fmt::join(f.strategies, ", "));
  }
  for (auto const& note : p.notes) out += fmt::format("\nnote: {}\n", note);
  out += fmt::format("\n({} ncu run{}, {:.1f} s)\n", p.commands.size(), p.commands.size() == 1 ? "" : "s",
                     p.wall_ms / 1000.0);
  return out;
}

}  // namespace

int run_profile(ProfileArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  auto task = load_task(args.task_dir);
  if (!task) return fail(task.error(), ErrorOrigin::input);
  auto candidates = read_candidates({args.candidate});
  if (!candidates) return fail(candidates.error(), ErrorOrigin::input);
  EvalOptions options;
  options.tier = TimingTier::screen;
  options.device = args.device;
  options.seed = 1;
  options.worker_path = worker_path_from_env(std::getenv("KOPT_WORKER"));
  auto evaluator = Evaluator::create(options);
  if (!evaluator) return fail(evaluator.error(), ErrorOrigin::environment);
  ProfileOptions profile_options;
  profile_options.size = args.size;
  profile_options.ncu = args.ncu;
  profile_options.second_stage = !args.stage1_only;
  if (!args.json) console.err << "profiling under Nsight Compute (about 2-3 s per run)...\n";
  auto profile = profile_candidate(**evaluator, *task, candidates->front(), profile_options);
  if (!profile) {
    ErrorOrigin const origin =
        profile.error().code == ErrorCode::invalid_argument ? ErrorOrigin::input : ErrorOrigin::environment;
    return fail(profile.error(), origin);
  }
  if (args.json) {
    console.out << to_json(*profile).dump(2) << '\n';
  } else {
    console.out << render(*profile);
  }
  return to_int(profile->status == CandidateStatus::ok ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
