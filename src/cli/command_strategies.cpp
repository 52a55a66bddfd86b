// `kopt strategies [TASK] [--show NAME | --instantiate NAME -o FILE] [--json]`: the strategy library, what
// applies to a task and why the rest does not, one strategy in full, or one instantiated for a task.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <ostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/propose.hpp"
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
    console.out << (args.json ? strategy_json(*s).dump(2) + "\n" : show_text(*s));
    return 0;
  }

  std::optional<TaskSpec> task;
  if (!args.task_dir.empty()) {
    auto loaded = load_task(args.task_dir);
    if (!loaded) return fail(loaded.error());
    task = std::move(*loaded);
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
      }
      list.push_back(std::move(entry));
    }
    json["strategies"] = std::move(list);
    if (task) json["task"] = task->name;
    console.out << json.dump(2) << '\n';
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
    if (!a.bindings.front().identity) {
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
  if (unbound > 0) {
    console.out << fmt::format(
        "  ({} more do not bind to this signature or need [strategy_params] it does not give; --json says "
        "why)\n",
        unbound);
  }
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
