// Chains of library families (docs/strategies.md, "Chains"): each stage bound and instantiated as a task of
// its own, the stages' texts combined into one tunable launcher with the chain's intermediates.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>
#include <optional>
#include <sstream>

#include "kopt/propose.hpp"
#include "kopt/tuning.hpp"
#include "propose/host_launch.hpp"
#include "propose/variant_text.hpp"

namespace kopt {
namespace {

IntermediateSpec const* find_intermediate(TaskSpec const& task, std::string_view name) {
  auto const it = std::find_if(task.intermediates.begin(), task.intermediates.end(),
                               [&](IntermediateSpec const& t) { return t.name == name; });
  return it != task.intermediates.end() ? &*it : nullptr;
}

// A stage's pointer parameter as C: the launcher's own, or an intermediate's element type.
Result<std::string> stage_pointer(TaskSpec const& task, std::string const& name, bool written) {
  if (IntermediateSpec const* t = find_intermediate(task, name)) {
    return fmt::format("{}{}* {}", written ? "" : "const ", c_type_name(t->dtype), name);
  }
  auto const p = std::find_if(task.signature.params.begin(), task.signature.params.end(),
                              [&](Param const& q) { return q.name == name && q.is_pointer; });
  if (p == task.signature.params.end()) {
    return make_error(ErrorCode::invalid_spec,
                      "'" + name + "' is neither a pointer parameter nor an intermediate");
  }
  return p->c_type + " " + p->name;
}

// The knobs a stage's text declares, renamed S<index>_<knob> wherever they appear in it.
Result<std::string> with_stage_knobs(std::string source, std::size_t index, std::string const& where) {
  auto space = TuningSpace::parse(source, where);
  if (!space) return space.error();
  for (Knob const& knob : space->knobs()) {
    RE2 const word("\\b" + knob.name + "\\b", RE2::Latin1);
    RE2::GlobalReplace(&source, word, fmt::format("S{}_{}", index, knob.name));
  }
  return source;
}

// The `// kopt:knob`, `// kopt:flag` and `// kopt:constraint` lines of a stage's (renamed) text.
std::string space_lines(std::string const& source) {
  static RE2 const line(R"(^[ \t]*//[ \t]*kopt:(knob|flag|constraint)\b)", RE2::Latin1);
  std::istringstream lines(source);
  std::string out;
  std::string text;
  while (std::getline(lines, text)) {
    if (RE2::PartialMatch(text, line)) out += text + "\n";
  }
  return out;
}

// Combinations of the stages' strategies looked at, at most (4 stages of 8 strategies each).
constexpr std::size_t kMaxCombinations = 4096;

// Why a stage's instantiated strategy has no configuration valid at every size case of the stage (its
// constraints and launch limits), or nothing when it has one: such a strategy is left out of the chain.
std::optional<std::string> without_configuration(TaskSpec const& stage, std::string const& source) {
  auto space = TuningSpace::parse(source);
  if (!space) return space.error().message;
  if (space->empty()) return std::nullopt;
  if (auto const status = space->check_rules(tuning_rules_for(stage)); !status) return status.error().message;
  // The first valid configuration in index order, found without listing them all (a convolution's space
  // holds hundreds of thousands).
  TuningRules const rules = tuning_rules_for(stage);
  std::vector<std::size_t> const dims = space->dimensions();
  Configuration config{std::vector<std::size_t>(dims.size(), 0)};
  for (;;) {
    if (!space->why_invalid(config, rules)) return std::nullopt;
    std::size_t k = dims.size();
    while (k > 0) {
      --k;
      if (++config.indices[k] < dims[k]) break;
      config.indices[k] = 0;
      if (k == 0) return "no configuration of its knobs is valid at every size case";
    }
  }
}

}  // namespace

Result<TaskSpec> chain_stage_task(TaskSpec const& task, std::size_t index) {
  if (index >= task.stages.size()) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("{} has {} stages, not a stage {}", task.name, task.stages.size(), index));
  }
  StageSpec const& stage = task.stages[index];
  std::vector<std::string> params;
  for (std::string const& name : stage.reads) {
    auto param = stage_pointer(task, name, false);
    if (!param) return param.error();
    params.push_back(*param);
  }
  for (std::string const& name : stage.writes) {
    auto param = stage_pointer(task, name, true);
    if (!param) return param.error();
    params.push_back(*param);
  }
  for (Param const& p : task.signature.params) {
    if (!p.is_pointer) params.push_back(p.c_type + " " + p.name);
  }
  auto signature = parse_signature(fmt::format("void kopt_stage({})", fmt::join(params, ", ")));
  if (!signature) {
    return make_error(ErrorCode::invalid_spec,
                      fmt::format("{} stage {}: {}", task.name, index, signature.error().message));
  }
  TaskSpec out = task;
  out.name = fmt::format("{}.stage{}", task.name, index);
  out.family = stage.family;
  out.strategy_params = stage.strategy_params;
  out.binding = stage.binding;
  out.stages.clear();
  out.intermediates.clear();
  out.launch.reset();
  out.baseline.reset();
  out.signature = std::move(*signature);
  out.signature.returns_error = false;
  out.buffers.clear();
  for (Param const& p : out.signature.params) {
    if (!p.is_pointer) continue;
    bool const written = std::find(stage.writes.begin(), stage.writes.end(), p.name) != stage.writes.end();
    if (BufferSpec const* buffer = task.find_buffer(p.name)) {
      out.buffers.push_back(*buffer);
      continue;
    }
    IntermediateSpec const* t = find_intermediate(task, p.name);
    BufferSpec buffer;
    buffer.name = t->name;
    buffer.dtype = t->dtype;
    buffer.length = t->length;
    buffer.role = written ? Role::output : Role::input;
    out.buffers.push_back(std::move(buffer));
  }
  return out;
}

Result<std::string> chain_candidate_source(TaskSpec const& task, std::vector<ChainStage> const& stages) {
  if (stages.size() != task.stages.size()) {
    return make_error(ErrorCode::invalid_argument, fmt::format("{} has {} stages, {} were given", task.name,
                                                               task.stages.size(), stages.size()));
  }
  std::vector<std::string> includes = {"#include <cmath>", "#include <cstdint>", "#include <cuda_runtime.h>"};
  std::string arch;
  std::string space;
  std::string texts;
  std::string calls;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    ChainStage const& stage = stages[i];
    std::string const where =
        fmt::format("{} stage {} ({}, {})", task.name, i, stage.task.family, stage.strategy);
    auto source = with_stage_knobs(stage.source, i, where);
    if (!source) return source.error();
    auto const mode = detect_mode(*source, stage.task.signature.function);
    if (!mode) {
      return make_error(ErrorCode::invalid_argument,
                        where + ": neither a kernel nor a launcher named " + stage.task.signature.function);
    }
    auto text = variant_text(*source, stage.task.signature.function, includes, arch, where);
    if (!text) return text.error();
    auto call = variant_call(stage.task, *source, *mode, where);
    if (!call) return call.error();
    space += space_lines(*source);
    std::string const ns = fmt::format("kopt_stage_{}", i);
    texts += namespaced_variant(
        *text, *call, ns,
        fmt::format("stage {}: {} ({}), knobs S{}_*", i, stage.strategy, stage.task.family, i));
    std::vector<std::string> args;
    for (Param const& p : stage.task.signature.params) {
      IntermediateSpec const* t = p.is_pointer ? find_intermediate(task, p.name) : nullptr;
      args.push_back(t != nullptr
                         ? fmt::format("static_cast<{}*>(kopt_chain_{})", c_type_name(t->dtype), t->name)
                         : p.name);
    }
    calls += fmt::format("  {}::kopt_call({});\n", ns, fmt::join(args, ", "));
    names.push_back(stage.strategy);
  }
  std::string head = fmt::format("// kopt chain for task {}: {}\n", task.name, fmt::join(names, " -> "));
  if (!arch.empty()) head += "// kopt:arch " + arch + "\n";
  head += space;
  head += element_type_includes(task);
  for (std::string const& include : includes) head += include + "\n";
  head += cpp_expression_helpers();
  std::string buffers;
  for (IntermediateSpec const& t : task.intermediates) {
    buffers += grow_only_buffer(task, "kopt_chain_" + t.name,
                                fmt::format("sizeof({}) * static_cast<size_t>({})", c_type_name(t.dtype),
                                            cpp_expression(t.length.text())));
  }
  std::string entry = fmt::format(
      "\n// The task's launcher: the stages in order on one stream, the intermediates between them.\n"
      "extern \"C\" {} {}({}) {{\n{}{}{}}}\n",
      task.signature.return_type(), task.signature.function, parameter_list(task), buffers, calls,
      launcher_status(task));
  return head + texts + entry;
}

Result<ChainProposals> propose_chain(StrategyLibrary const& library, TaskSpec const& task, int arch_sm,
                                     std::vector<std::string> const& only, std::size_t limit) {
  ChainProposals out;
  std::vector<std::vector<ChainStage>> choices;
  for (std::size_t i = 0; i < task.stages.size(); ++i) {
    auto stage_task = chain_stage_task(task, i);
    if (!stage_task) return stage_task.error();
    std::vector<ChainStage> stage_choices;
    std::vector<std::string> why;
    for (LibraryStrategy const* s : choose_strategies(library, *stage_task, arch_sm)) {
      if (!only.empty() && std::find(only.begin(), only.end(), s->name) == only.end()) continue;
      auto source = instantiate_strategy(library, *s, *stage_task, arch_sm);
      if (!source) {
        why.push_back(source.error().message);
        continue;
      }
      if (auto const none = without_configuration(*stage_task, *source)) {
        why.push_back(s->name + ": " + *none);
        continue;
      }
      stage_choices.push_back(ChainStage{s->name, *stage_task, std::move(*source)});
    }
    if (stage_choices.empty()) {
      for (LibraryStrategy const& s : library.strategies) {
        if (std::find(s.families.begin(), s.families.end(), task.stages[i].family) == s.families.end())
          continue;
        auto const a = check_applicability(s, *stage_task, arch_sm);
        why.push_back(s.name + ": " + (a.applies ? std::string("not selected") : a.reason));
      }
      out.skipped.push_back(fmt::format("stage {} ({}): {}", i, task.stages[i].family,
                                        why.empty() ? std::string("no strategy of the library serves it")
                                                    : fmt::format("{}", fmt::join(why, "; "))));
    }
    choices.push_back(std::move(stage_choices));
  }
  if (!out.skipped.empty()) return out;
  // The combinations by the sum of their stages' ranks, then in order: every stage's first choice first, then
  // each stage's second choice with the others' first, and so on; so that a limit keeps every stage's
  // alternatives rather than every combination of the last stages'.
  std::vector<std::vector<std::size_t>> combinations(1);
  for (auto const& stage_choices : choices) {
    std::vector<std::vector<std::size_t>> longer;
    for (auto const& prefix : combinations) {
      for (std::size_t k = 0; k < stage_choices.size() && longer.size() < kMaxCombinations; ++k) {
        longer.push_back(prefix);
        longer.back().push_back(k);
      }
    }
    combinations = std::move(longer);
  }
  auto const rank = [](std::vector<std::size_t> const& c) {
    std::size_t sum = 0;
    for (std::size_t k : c) sum += k;
    return sum;
  };
  std::stable_sort(combinations.begin(), combinations.end(),
                   [&](auto const& x, auto const& y) { return rank(x) < rank(y); });
  for (auto const& combination : combinations) {
    if (out.proposals.size() >= limit) break;
    std::vector<ChainStage> picked;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      picked.push_back(choices[i][combination[i]]);
      names.push_back(choices[i][combination[i]].strategy);
    }
    auto source = chain_candidate_source(task, picked);
    if (!source) return source.error();
    LibraryStrategy const* first = library.find(names.front());
    out.proposals.push_back(ChainProposal{fmt::format("{}", fmt::join(names, " + ")),
                                          first != nullptr ? first->template_path : std::filesystem::path(),
                                          std::move(*source)});
  }
  return out;
}

}  // namespace kopt

namespace kopt {

bool library_applies(StrategyLibrary const& library, TaskSpec const& task, int arch_sm) {
  if (!task.is_chain()) return !choose_strategies(library, task, arch_sm).empty();
  auto chain = propose_chain(library, task, arch_sm, {}, 1);
  return chain && !chain->proposals.empty();
}

}  // namespace kopt
