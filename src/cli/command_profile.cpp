// `kopt profile TASK CANDIDATE`: classification and findings of one call under Nsight Compute.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "cli/options.hpp"
#include "cli/single_candidate.hpp"
#include "kopt/insight.hpp"
#include "kopt/json_values.hpp"
#include "kopt/profile_candidate.hpp"

namespace kopt::cli {
namespace {

using nlohmann::json;

json to_json(CandidateProfile const& p) {
  json findings = json::array();
  for (auto const& f : p.findings) findings.push_back(kopt::to_json(f));
  json metrics = json::object();
  for (auto const& [name, value] : p.metrics) metrics[name] = value;
  return json{{"schema", "kopt.profile/1"},
              {"task", p.task},
              {"candidate", p.candidate},
              {"size", p.size},
              {"status", std::string(to_string(p.status))},
              {"message", p.message},
              {"kernels", p.kernels},
              {"main_kernel", p.main_kernel},
              {"classification", kopt::to_json(p.classification)},
              {"findings", findings},
              {"metrics", metrics},
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
  SingleCandidateFailure failure{};
  auto opened = open_single_candidate(args.task_dir, args.candidate, args.device, failure);
  if (!opened) return fail(failure.error, failure.origin);
  for (std::string const& note : opened->notes) console.err << note << '\n';
  ProfileOptions profile_options;
  profile_options.size = args.size;
  profile_options.ncu = args.ncu;
  profile_options.second_stage = !args.stage1_only;
  if (!args.json) console.err << "profiling under Nsight Compute (about 2-3 s per run)...\n";
  auto profile = profile_candidate(*opened->evaluator, opened->task, opened->candidate, profile_options);
  if (!profile) {
    ErrorOrigin const origin =
        profile.error().code == ErrorCode::invalid_argument ? ErrorOrigin::input : ErrorOrigin::environment;
    return fail(profile.error(), origin);
  }
  if (args.json) {
    console.out << json_text(to_json(*profile)) << '\n';
  } else {
    console.out << render(*profile);
  }
  return to_int(profile->status == CandidateStatus::ok ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
