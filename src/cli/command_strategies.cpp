// `kopt strategies [TASK] [--show NAME | --instantiate NAME -o FILE] [--json]`: the strategy library, what
// applies to a task and why the rest does not, one strategy in full, or one instantiated for a task.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/json_values.hpp"
#include "kopt/propose.hpp"
#include "kopt/store.hpp"
#include "kopt/text.hpp"
#include "kopt/tuning.hpp"

namespace kopt::cli {
namespace {

// The first sentence (up to ". " before a capital letter, so "e.g. x" does not end it), on one line, wrapped
// to `width` columns after an indent of `indent`.
std::string first_sentence(std::string const& text, std::size_t indent, std::size_t width = 110) {
  std::size_t end = 0;
  while ((end = text.find(". ", end)) != std::string::npos) {
    if (end + 2 < text.size() && std::isupper(static_cast<unsigned char>(text[end + 2])) != 0) break;
    end += 2;
  }
  std::string sentence = end == std::string::npos ? text : text.substr(0, end + 1);
  std::replace(sentence.begin(), sentence.end(), '\n', ' ');
  std::string out;
  std::size_t column = indent;
  std::istringstream words(sentence);
  for (std::string word; words >> word;) {
    if (column > indent && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (column > indent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

// The template's tuning-space lines as written (their sizes may be placeholders until instantiated).
std::vector<std::string> space_lines(std::string const& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto const at = line.find("kopt:");
    if (line.find("//") != std::string::npos && at != std::string::npos &&
        (line.compare(at, 9, "kopt:knob") == 0 || line.compare(at, 9, "kopt:flag") == 0 ||
         line.compare(at, 15, "kopt:constraint") == 0 || line.compare(at, 11, "kopt:launch") == 0)) {
      lines.push_back(line.substr(at));
    }
  }
  return lines;
}

nlohmann::json strategy_json(LibraryStrategy const& s) {
  return {{"name", s.name},
          {"families", s.families},
          {"template", s.template_path.string()},
          {"signature", s.signature},
          {"params", s.params},
          {"min_arch", s.min_arch},
          {"addresses", s.addresses},
          {"description", s.description},
          {"applies_when", s.applies_when},
          {"tuning_space", space_lines(s.template_text)}};
}

std::string show_text(LibraryStrategy const& s) {
  std::string out = fmt::format("{}  (families: {}; template {})\n\n{}\n\nApplies when: {}\n\nContract: {}\n",
                                s.name, fmt::join(s.families, ", "), s.template_path.string(), s.description,
                                s.applies_when, s.signature);
  if (!s.params.empty())
    out += fmt::format("Task parameters ([strategy_params]): {}\n", fmt::join(s.params, ", "));
  out += "Tuning space:\n";
  for (auto const& line : space_lines(s.template_text)) out += "  " + line + "\n";
  return out;
}

// For a task without a family: every family of the library, kept (some strategy of it binds) or dropped
// (why its first strategy does not), in library order.
std::string family_inference_text(StrategyLibrary const& library, TaskSpec const& task, int arch) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>, std::less<>> kept;
  std::map<std::string, std::string, std::less<>> dropped;
  for (auto const& s : library.strategies) {
    auto const a = check_applicability(s, task, arch);
    for (auto const& family : s.families) {
      if (std::find(order.begin(), order.end(), family) == order.end()) order.push_back(family);
      if (a.applies) {
        kept[family].push_back(s.name);
      } else if (!dropped.contains(family)) {
        dropped[family] = s.name + ": " + a.reason;
      }
    }
  }
  std::string out =
      "\nFamilies considered (the task declares none; each kept one is verified on the GPU before "
      "it is tuned):\n";
  for (auto const& family : order) {
    if (auto const it = kept.find(family); it != kept.end()) {
      out += fmt::format("  kept     {:<16} {}\n", family, fmt::join(it->second, ", "));
    } else {
      out += fmt::format("  dropped  {:<16} {}\n", family, first_sentence(dropped[family], 27));
    }
  }
  return out;
}

// The bindings of this task verified on the GPU by earlier runs (docs/strategies.md, "Binding"): none when
// the store does not exist yet.
Result<std::vector<VerifiedBinding>> stored_bindings(std::string const& store_path, TaskSpec const& task) {
  auto const path = command_store_path(store_path);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::vector<VerifiedBinding>{};
  auto store = Store::open(path, StoreAccess::read_only);
  if (!store) return std::move(store).error();
  return store->verified_bindings(binding_task_key(task));
}

// --write-binding: the verified bindings of the applicable strategies, in the order the proposer takes them,
// merged into the task's [binding] (a role keeps the first value found; the task's own roles are kept).
int write_binding(StrategiesArgs const& args, StrategyLibrary const& library, TaskSpec const& task, int arch,
                  std::vector<VerifiedBinding> const& verified, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  std::map<std::string, std::string, std::less<>> roles;
  std::vector<std::string> sources;
  bool any_ambiguous = false;
  for (auto const* s : choose_strategies(library, task, arch)) {
    auto const a = check_applicability(*s, task, arch);
    any_ambiguous =
        any_ambiguous || a.family_inferred || (!a.bindings.front().identity && a.bindings.size() > 1);
    auto const* known = find_verified_binding(verified, *s, a);
    if (known == nullptr) continue;
    for (auto const& [role, value] : known->roles.items()) {
      if (value.is_string()) roles.emplace(role, value.get<std::string>());
    }
    sources.push_back(fmt::format("{} (verified {})", s->name, known->verified_at));
  }
  nlohmann::json json = {
      {"schema", "kopt.write_binding/1"}, {"task", task.name}, {"task_toml", task.spec_file.string()}};
  if (roles.empty()) {
    if (any_ambiguous) {
      console.err << fmt::format(
          "kopt strategies: no verified binding of {} in {}: `kopt optimize {}` verifies the plausible "
          "bindings "
          "on the GPU and records the one that verifies; run this again after it\n",
          task.name, command_store_path(args.store).string(), args.task_dir);
    } else {
      console.err << fmt::format(
          "kopt strategies: nothing to write: the signature of {} decides every applicable strategy's "
          "binding\n",
          task.name);
    }
    json["written"] = nlohmann::json::array();
    json["verified"] = !any_ambiguous;
    if (args.json) console.out << json_text(json) << '\n';
    return any_ambiguous ? 1 : 0;
  }
  auto const text = read_text_file(task.spec_file);
  if (!text) return fail(make_error(ErrorCode::io_error, task.spec_file.string() + ": cannot read the file"));
  auto edit = add_binding_entries(
      *text, roles, fmt::format("written by kopt strategies --write-binding: {}", fmt::join(sources, "; ")));
  if (!edit)
    return fail(make_error(edit.error().code, task.spec_file.string() + ": " + edit.error().message));
  if (!edit->written.empty()) {
    // The edited task must still load before it replaces the old one.
    if (auto check = parse_task(edit->text, task.spec_file, task.dir); !check) return fail(check.error());
    auto const temporary = task.spec_file.string() + ".kopt-write";
    if (!write_text_file(temporary, edit->text))
      return fail(make_error(ErrorCode::io_error, temporary + ": cannot write the file"));
    std::error_code ec;
    std::filesystem::rename(temporary, task.spec_file, ec);
    if (ec)
      return fail(
          make_error(ErrorCode::io_error, task.spec_file.string() + ": cannot replace it: " + ec.message()));
  }
  if (args.json) {
    json["written"] = edit->written;
    json["kept"] = edit->kept;
    json["from"] = sources;
    json["verified"] = true;
    console.out << json_text(json) << '\n';
    return 0;
  }
  if (edit->written.empty()) {
    console.out << fmt::format("{} [binding] already has every verified role ({})\n", task.spec_file.string(),
                               fmt::join(edit->kept, ", "));
    return 0;
  }
  console.out << fmt::format("wrote to {} [binding] ({}):\n", task.spec_file.string(),
                             fmt::join(sources, "; "));
  for (auto const& line : edit->written) console.out << "  " << line << '\n';
  if (!edit->kept.empty())
    console.out << fmt::format("kept the task's own value for: {}\n", fmt::join(edit->kept, ", "));
  return 0;
}

// A chain task (docs/strategies.md, "Chains"): each stage's applicable strategies, and the combinations the
// proposer screens; with --instantiate NAME ("a + b" as listed), that combination's source.
int chain_strategies(StrategiesArgs const& args, StrategyLibrary const& library, TaskSpec const& task,
                     int arch, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  auto chain = propose_chain(library, task, arch, {}, 64);
  if (!chain) return fail(chain.error());
  if (!args.instantiate.empty()) {
    auto const it = std::find_if(chain->proposals.begin(), chain->proposals.end(),
                                 [&](ChainProposal const& p) { return p.name == args.instantiate; });
    if (it == chain->proposals.end()) {
      return fail(make_error(ErrorCode::invalid_argument, "--instantiate: '" + args.instantiate +
                                                              "' is not one of the chain's combinations (" +
                                                              "kopt strategies " + args.task_dir +
                                                              " lists them)"));
    }
    if (args.out.empty()) {
      console.out << it->source;
      return 0;
    }
    std::ofstream out(args.out, std::ios::binary);
    out << it->source;
    if (!out) return fail(make_error(ErrorCode::io_error, "--out '" + args.out + "': cannot write the file"));
    console.err << fmt::format("wrote {} ({} for {}); tune it with: kopt optimize {} --from {}\n", args.out,
                               it->name, task.name, args.task_dir, args.out);
    return 0;
  }
  nlohmann::json stages = nlohmann::json::array();
  std::string text = fmt::format("{}: a chain of {} stages\n", task.name, task.stages.size());
  for (std::size_t i = 0; i < task.stages.size(); ++i) {
    auto stage = chain_stage_task(task, i);
    if (!stage) return fail(stage.error());
    nlohmann::json names = nlohmann::json::array();
    std::vector<std::string> listed;
    for (auto const* s : choose_strategies(library, *stage, arch)) {
      names.push_back(s->name);
      listed.push_back(s->name);
    }
    stages.push_back({{"family", task.stages[i].family},
                      {"reads", task.stages[i].reads},
                      {"writes", task.stages[i].writes},
                      {"strategies", std::move(names)}});
    text += fmt::format(
        "  stage {}: {} ({} -> {}): {}\n", i, task.stages[i].family, fmt::join(task.stages[i].reads, ", "),
        fmt::join(task.stages[i].writes, ", "),
        listed.empty() ? std::string("no strategy applies") : fmt::format("{}", fmt::join(listed, ", ")));
  }
  nlohmann::json combinations = nlohmann::json::array();
  for (ChainProposal const& p : chain->proposals) combinations.push_back(p.name);
  if (args.json) {
    console.out << json_text({{"schema", "kopt.strategies/1"},
                              {"task", task.name},
                              {"stages", std::move(stages)},
                              {"combinations", std::move(combinations)},
                              {"skipped", chain->skipped}})
                << '\n';
    return 0;
  }
  text += fmt::format("\n{} combinations, each one tunable candidate:\n", chain->proposals.size());
  for (ChainProposal const& p : chain->proposals) text += "  + " + p.name + "\n";
  for (std::string const& why : chain->skipped) text += "  - " + why + "\n";
  if (!chain->proposals.empty())
    text += fmt::format("\nTune them all: kopt optimize {} --budget 48\n", args.task_dir);
  console.out << text;
  return 0;
}

}  // namespace

int run_strategies(StrategiesArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  auto root = find_strategy_library(
      args.library.empty() ? std::nullopt : std::optional<std::filesystem::path>(args.library));
  if (!root) return fail(root.error());
  auto library = load_strategy_library(*root);
  if (!library) return fail(library.error());
  if (!args.arch.empty()) {
    if (auto status = check_arch(args.arch); !status) return fail(status.error());
  }
  int const arch = arch_number(args.arch);

  if (!args.show.empty()) {
    auto const* s = library->find(args.show);
    if (s == nullptr)
      return fail(make_error(ErrorCode::invalid_argument, "--show: no strategy named '" + args.show + "'"));
    console.out << (args.json ? json_text(strategy_json(*s)) + "\n" : show_text(*s));
    return 0;
  }

  std::optional<TaskSpec> task;
  if (!args.task_dir.empty()) {
    auto loaded = load_task(args.task_dir);
    if (!loaded) return fail(loaded.error());
    task = std::move(*loaded);
  }

  std::vector<VerifiedBinding> verified;
  if (task) {
    auto stored = stored_bindings(args.store, *task);
    if (!stored) return fail(stored.error());
    verified = std::move(*stored);
  }
  if (task && task->is_chain()) {
    if (args.write_binding)
      return fail(
          make_error(ErrorCode::invalid_argument,
                     "--write-binding: a chain's bindings are its stages' (write them under [[stages]])"));
    return chain_strategies(args, *library, *task, arch, console);
  }
  if (args.write_binding) {
    if (!task)
      return fail(make_error(ErrorCode::invalid_argument, "--write-binding: expected a task folder"));
    return write_binding(args, *library, *task, arch, verified, console);
  }

  if (!args.instantiate.empty()) {
    if (!task) return fail(make_error(ErrorCode::invalid_argument, "--instantiate: expected a task folder"));
    auto const* s = library->find(args.instantiate);
    if (s == nullptr) {
      return fail(make_error(ErrorCode::invalid_argument,
                             "--instantiate: no strategy named '" + args.instantiate + "'"));
    }
    auto text = instantiate_strategy(*library, *s, *task, arch);
    if (!text) return fail(text.error());
    if (auto space = TuningSpace::parse(*text, s->template_path.filename().string()); !space)
      return fail(space.error());
    if (args.out.empty()) {
      console.out << *text;
      return 0;
    }
    std::ofstream out(args.out, std::ios::binary);
    out << *text;
    if (!out) return fail(make_error(ErrorCode::io_error, "--out '" + args.out + "': cannot write the file"));
    console.err << fmt::format("wrote {} ({} for {}); tune it with: kopt optimize {} --from {}\n", args.out,
                               s->name, task->name, args.task_dir, args.out);
    return 0;
  }

  if (args.json) {
    nlohmann::json json = {{"schema", "kopt.strategies/1"}, {"library", root->string()}};
    nlohmann::json list = nlohmann::json::array();
    for (auto const& s : library->strategies) {
      auto entry = strategy_json(s);
      if (task) {
        auto const a = check_applicability(s, *task, arch);
        entry["applies"] = a.applies;
        entry["reason"] = a.reason;
        nlohmann::json bindings = nlohmann::json::array();
        for (StrategyBinding const& b : a.bindings) {
          bindings.push_back({{"binding", b.describe()}, {"identity", b.identity}, {"score", b.score}});
        }
        entry["bindings"] = std::move(bindings);
        entry["family_inferred"] = a.family_inferred;
        auto const* known = find_verified_binding(verified, s, a);
        entry["verified_binding"] =
            known != nullptr ? nlohmann::json(known->binding) : nlohmann::json(nullptr);
      }
      list.push_back(std::move(entry));
    }
    json["strategies"] = std::move(list);
    if (task) json["task"] = task->name;
    console.out << json_text(json) << '\n';
    return 0;
  }

  if (!task) {
    console.out << fmt::format("{} strategies in {}\n\n", library->strategies.size(), root->string());
    for (auto const& s : library->strategies) {
      console.out << fmt::format("{:<32} {}\n{:<32} {}\n", s.name, fmt::join(s.families, ", "), "",
                                 first_sentence(s.description, 33));
    }
    console.out << "\nkopt strategies TASK shows which apply to a task; --show NAME prints one in full.\n";
    return 0;
  }
  auto const chosen = choose_strategies(*library, *task, arch);
  console.out << fmt::format("{} (family {}): {} of {} strategies apply\n\n", task->name,
                             task->family.empty() ? "none" : task->family, chosen.size(),
                             library->strategies.size());
  for (auto const* s : chosen) {
    console.out << fmt::format("  + {:<30} {}\n", s->name, first_sentence(s->description, 35));
    auto const a = check_applicability(*s, *task, arch);
    if (task->family.empty())
      console.out << fmt::format("    {:<30} family {}\n", "", fmt::join(s->families, ", "));
    if (auto const* known = find_verified_binding(verified, *s, a)) {
      console.out << fmt::format("    {:<30} binding {} (verified {})\n", "", known->binding,
                                 known->verified_at);
    } else if (!a.bindings.front().identity) {
      console.out << fmt::format(
          "    {:<30} binding {}{}\n", "", a.bindings.front().describe(),
          a.bindings.size() > 1 ? fmt::format(" (1 of {} plausible; verification decides)", a.bindings.size())
                                : std::string());
    }
  }
  std::size_t other_families = 0;
  std::size_t unbound = 0;
  for (auto const& s : library->strategies) {
    auto const a = check_applicability(s, *task, arch);
    if (a.applies) continue;
    if (a.reason.rfind("serves ", 0) == 0) {
      ++other_families;
      continue;
    }
    if (task->family.empty()) {
      ++unbound;  // family inference: another computation's strategy; --json says why
      continue;
    }
    console.out << fmt::format("  - {:<30} does not apply: {}\n", s.name, a.reason);
  }
  if (other_families > 0) console.out << fmt::format("  ({} more serve other families)\n", other_families);
  if (unbound > 0) console.out << family_inference_text(*library, *task, arch);
  if (!chosen.empty()) {
    console.out << fmt::format("\nTune them all: kopt optimize {} --budget 48\n", args.task_dir);
  } else if (task->family.empty()) {
    console.out << "\nThe task declares no family and no strategy's contract binds to its signature: give it "
                   "a family (docs/suites.md lists them) and, where names alone do not decide, a [binding] "
                   "table (docs/strategies.md, \"Binding\").\n";
  }
  return 0;
}

}  // namespace kopt::cli
