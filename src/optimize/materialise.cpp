// materialise: one configuration as a source that compiles as it is.
#include <fmt/format.h>

#include <cstdint>

#include "kopt/optimize.hpp"

namespace kopt {

Result<CandidateInput> materialise(TuningSpace const& space, Configuration const& config,
                                   std::string const& source, TaskSpec const& task,
                                   std::vector<std::string> const& extra_flags) {
  CompileRequest base;
  base.source = source;
  base.entry = task.signature.function;
  auto const mode = detect_mode(source, task.signature.function);
  base.mode = mode.value_or(CandidateMode::kernel);
  auto applied = space.apply(config, base, task.launch.value_or(LaunchSpec{}));
  if (!applied) return applied.error();

  CandidateInput candidate;
  candidate.name = space.config_key(config);
  candidate.knobs = space.values(config);
  candidate.mode = base.mode;
  std::string defines = fmt::format("// kopt optimize: {}\n", candidate.name);
  for (std::string const& flag : applied->request.flags) {
    if (flag.starts_with("-D")) {
      std::string const definition = flag.substr(2);
      auto const equals = definition.find('=');
      defines += equals == std::string::npos ? fmt::format("#define {}\n", definition)
                                             : fmt::format("#define {} {}\n", definition.substr(0, equals),
                                                           definition.substr(equals + 1));
    } else {
      candidate.flags.push_back(flag);
    }
  }
  // Diagnostics keep the line numbers of the file as written.
  defines += "#line 1\n";
  candidate.source = defines + applied->request.source;
  candidate.flags.insert(candidate.flags.end(), extra_flags.begin(), extra_flags.end());
  return candidate;
}

}  // namespace kopt
