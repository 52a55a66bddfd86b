// materialise: one configuration as a source that compiles as it is, and the candidate's content key.
#include <fmt/format.h>

#include <cstdint>

#include "kopt/optimize.hpp"
#include "kopt/sha256.hpp"

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

CandidateKey content_key(CandidateInput const& candidate, EvaluationTarget const& target) {
  std::string text = to_string(candidate.mode).data();
  text += '\0';
  text += candidate.source;
  for (std::string const& flag : candidate.flags) {
    text += '\0';
    text += flag;
  }
  text += '\0';
  text += target.arch;
  text += '\0';
  text += target.toolkit;
  return CandidateKey(sha256_hex(text).substr(0, 32));  // 128 bits, as the compile cache
}

}  // namespace kopt
