// Builds a role's request from a PromptContext: the sections as text, the template filled with them, and the
// token budget kept by shortening the least important sections first (docs/llm.md, "Prompt budget").
#include <algorithm>
#include <iomanip>
#include <sstream>

#include "kopt/llm_roles.hpp"
#include "kopt/text.hpp"
#include "llm/text_lines.hpp"

namespace kopt {
namespace {

std::string number(double value) {
  std::ostringstream out;
  out << std::setprecision(6) << value;
  return out.str();
}

std::string scalar_text(ScalarValue const& value) {
  if (auto const* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  return number(std::get<double>(value));
}

std::string signature_text(Signature const& signature) {
  std::string out = "void " + signature.function + "(";
  for (std::size_t i = 0; i < signature.params.size(); ++i) {
    if (i > 0) out += ", ";
    out += signature.params[i].c_type + " " + signature.params[i].name;
  }
  return out + ")";
}

std::string sizes_text(std::vector<SizeCase> const& sizes) {
  std::string out;
  for (auto const& size : sizes) {
    out += "- " + size.name + ":";
    bool first = true;
    for (auto const& [name, value] : size.values) {
      out += (first ? " " : ", ") + name + "=" + scalar_text(value);
      first = false;
    }
    for (auto const& [name, value] : size.variables) {
      out += (first ? " " : ", ") + name + "=" + std::to_string(value) + " (not passed to the launcher)";
      first = false;
    }
    if (size.verify_only) out += " (checked for correctness, not timed)";
    out += "\n";
  }
  return out;
}

std::string tolerance_text(std::vector<std::pair<DType, ToleranceSpec>> const& tolerances) {
  std::string out;
  for (auto const& [dtype, tol] : tolerances) {
    out += "- " + std::string(to_string(dtype)) + " outputs: atol = " + number(tol.atol) +
           ", rtol = " + number(tol.rtol) + ", mismatch_fraction = " + number(tol.mismatch_fraction) + "\n";
  }
  if (!out.empty()) {
    out +=
        "An output element passes when |got - ref| <= atol * max|ref| + rtol * |ref|, where max|ref| is the "
        "largest finite magnitude in the reference output; an output passes when at most mismatch_fraction "
        "of its elements fail. Elements the kernel never writes always fail.\n";
  }
  return out;
}

std::string times_text(std::vector<PromptTiming> const& times) {
  std::string out;
  for (auto const& t : times) {
    out += "- " + t.size + ": " + number(t.median_us) + " us median";
    if (t.speedup) out += " (" + number(*t.speedup) + "x the reference's speed)";
    out += "\n";
  }
  return out;
}

std::string options_text(std::vector<PromptOption> const& options) {
  std::string out;
  for (auto const& option : options) {
    out += "- " + option.name + ": " + option.description;
    if (!option.applies_when.empty()) out += " (applies when: " + option.applies_when + ")";
    out += "\n";
  }
  return out;
}

std::string siblings_text(std::vector<SiblingOutcome> const& siblings, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < siblings.size(); ++i) {
    out += "- " + siblings[i].name + ": " + siblings[i].outcome + "\n";
  }
  return out;
}

std::string candidate_form_text(PromptContext const& context) {
  if (context.kernel_mode) {
    return "Device code only: a __global__ function named " + context.signature.function +
           " with the entry's parameters. kopt launches it with the task's grid and block; a comment line "
           "`// kopt:launch grid=(...) block=(...) shared=(...)` (expressions over the scalar parameters) "
           "overrides them.";
  }
  return "A complete launcher: a host function `extern \"C\" " + signature_text(context.signature) +
         "` that launches your kernels on the default stream and returns. The pointers are device memory; "
         "kopt synchronises and times around the call.";
}

std::string output_format_text(PromptRole role, EditFormat format) {
  switch (role) {
    case PromptRole::planner:
      return "End your reply with exactly these two parts:\n"
             "PLAN: <one paragraph: what to change in the current kernel, why it should be faster for the "
             "bottleneck above, and how it stays correct for every size case>\n"
             "CHOICE: <the name of one option above>\n"
             "The CHOICE line must be the last line and must name exactly one option as it is spelled above.";
    case PromptRole::judge:
      return "Reply with a short review, then a last line of exactly one of:\n"
             "VERDICT: accept\n"
             "VERDICT: reject\n"
             "Reject a kernel that breaks a rule above or is wrong for some size case; name the rule or the "
             "size case in your review.";
    case PromptRole::generator:
    case PromptRole::coder: break;
  }
  if (format == EditFormat::search_replace) {
    return "Reply with one or more edit blocks against the current kernel, each exactly in this form:\n"
           "<<<<<<< SEARCH\n"
           "<lines copied exactly from the current kernel, whitespace included>\n"
           "=======\n"
           "<the lines that replace them>\n"
           ">>>>>>> REPLACE\n"
           "Blocks apply in order. The SEARCH text must match exactly one place in the kernel: include "
           "enough "
           "surrounding lines to make it unique. An empty replacement deletes the lines. Do not repeat the "
           "whole file.";
  }
  return "Reply with the complete source file of the kernel in one ```cuda fenced block: every include, "
         "every kernel and the entry function, ready to compile on its own. The last ```cuda block of your "
         "reply is taken as the kernel; do not put other code in fences.";
}

// A text shortened to about `limit` bytes of whole lines. Sources keep their head and tail around a marker;
// other texts keep their head. `cut_lines` says how many lines went.
struct Shortened {
  std::string text;
  std::size_t cut_lines = 0;
  std::size_t total_lines = 0;
};

Shortened shorten(std::string_view text, std::size_t limit, bool keep_tail) {
  auto const lines = detail::split_lines(text);
  Shortened result;
  result.total_lines = lines.size();
  if (text.size() <= limit) {
    result.text = std::string(text);
    return result;
  }
  std::size_t head_budget = keep_tail ? limit * 2 / 3 : limit;
  std::size_t tail_budget = keep_tail ? limit - head_budget : 0;
  std::size_t head = 0;
  std::size_t used = 0;
  while (head < lines.size() && used + lines[head].size() + 1 <= head_budget)
    used += lines[head++].size() + 1;
  std::size_t tail = 0;  // lines kept from the end
  used = 0;
  while (tail < lines.size() - head && used + lines[lines.size() - 1 - tail].size() + 1 <= tail_budget) {
    used += lines[lines.size() - 1 - tail].size() + 1;
    ++tail;
  }
  result.cut_lines = lines.size() - head - tail;
  for (std::size_t i = 0; i < head; ++i) result.text.append(lines[i]).append("\n");
  result.text += "[... " + std::to_string(result.cut_lines) + " of " + std::to_string(lines.size()) +
                 " lines left out to fit the prompt budget ...]\n";
  for (std::size_t i = lines.size() - tail; i < lines.size(); ++i) result.text.append(lines[i]).append("\n");
  return result;
}

enum class Section { siblings, findings, errors, reference_source, kernel_source };

std::string_view section_name(Section section) {
  switch (section) {
    case Section::siblings: return "sibling outcomes";
    case Section::findings: return "profiler findings";
    case Section::errors: return "error excerpts";
    case Section::reference_source: return "reference source";
    case Section::kernel_source: return "current kernel";
  }
  return "?";
}

// What the budget has left of each cuttable section.
struct CutState {
  std::size_t siblings_kept = 0;
  std::map<Section, std::size_t> limits;  // byte limit of each shortened text section
  std::map<Section, Shortened> texts;
  std::vector<Section> cut_order;  // sections in the order they were first cut
};

std::string const& original_text(PromptContext const& context, Section section) {
  switch (section) {
    case Section::findings: return context.findings;
    case Section::errors: return context.errors;
    case Section::reference_source: return context.reference_source;
    case Section::kernel_source:
    case Section::siblings: break;
  }
  return context.kernel_source;
}

std::string section_text(PromptContext const& context, CutState const& state, Section section) {
  auto const it = state.texts.find(section);
  return it != state.texts.end() ? it->second.text : original_text(context, section);
}

std::map<std::string, std::string> prompt_values(PromptRole role, PromptContext const& context,
                                                 PromptOptions const& options, CutState const& state) {
  std::map<std::string, std::string> v;
  v["task_name"] = context.task_name;
  v["description"] = context.description;
  v["family"] = context.family;
  v["signature"] = signature_text(context.signature);
  v["dtype"] = std::string(to_string(context.dtype));
  v["candidate_form"] = candidate_form_text(context);
  v["sizes"] = sizes_text(context.sizes);
  v["size_count"] = std::to_string(context.sizes.size());
  v["tolerance"] = tolerance_text(context.tolerances);
  v["reference_path"] = context.reference_path;
  v["reference_source"] = section_text(context, state, Section::reference_source);
  v["strategy_name"] = context.strategy_name;
  v["strategy_description"] = context.strategy_description;
  v["strategy_applies_when"] = context.strategy_applies_when;
  v["options"] = options_text(context.options);
  v["kernel_source"] = section_text(context, state, Section::kernel_source);
  v["times"] = times_text(context.times);
  v["findings"] = section_text(context, state, Section::findings);
  v["siblings"] = siblings_text(context.siblings, state.siblings_kept);
  v["errors"] = section_text(context, state, Section::errors);
  v["plan"] = context.plan;
  v["output_format"] = output_format_text(role, options.edit_format);
  // Templates put the line breaks around a value: a value ends without one.
  for (auto& [name, value] : v) {
    while (!value.empty() && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
  }
  return v;
}

std::string cut_description(PromptContext const& context, CutState const& state, Section section) {
  if (section == Section::siblings) {
    return std::to_string(context.siblings.size() - state.siblings_kept) + " of " +
           std::to_string(context.siblings.size()) + " left out";
  }
  auto const& s = state.texts.at(section);
  return std::to_string(s.cut_lines) + " of " + std::to_string(s.total_lines) + " lines left out";
}

struct Rendered {
  std::string system;
  std::string user;
  std::size_t tokens = 0;
};

Result<Rendered> render(PromptTemplate const& tmpl, PromptRole role, PromptContext const& context,
                        PromptOptions const& options, CutState const& state) {
  auto const values = prompt_values(role, context, options, state);
  auto system = render_prompt_text(tmpl.system, values, tmpl.file, tmpl.system_line);
  if (!system) return system.error();
  auto user = render_prompt_text(tmpl.user, values, tmpl.file, tmpl.user_line);
  if (!user) return user.error();
  Rendered out{std::string(trim(*system)), std::string(trim(*user)), 0};
  if (!state.cut_order.empty()) {
    out.user += "\n\nNote: to fit kopt's prompt budget, these sections were shortened:";
    for (auto section : state.cut_order) {
      out.user +=
          " " + std::string(section_name(section)) + " (" + cut_description(context, state, section) + ");";
    }
    out.user.back() = '.';
    out.user += " Work with what is shown.";
  }
  out.tokens = estimate_tokens(out.system) + estimate_tokens(out.user);
  return out;
}

// Shortens `section` by about `excess` bytes; false when there is nothing left to take.
bool cut(PromptContext const& context, CutState& state, Section section, std::size_t excess) {
  if (section == Section::siblings) {
    if (state.siblings_kept == 0) return false;
    std::size_t removed = 0;
    while (state.siblings_kept > 0 && removed < excess) {
      auto const& s = context.siblings[state.siblings_kept - 1];
      removed += s.name.size() + s.outcome.size() + 5;
      --state.siblings_kept;
    }
  } else {
    auto const& original = original_text(context, section);
    auto [it, inserted] = state.limits.try_emplace(section, original.size());
    auto& limit = it->second;
    if (limit == 0 || original.empty()) return false;
    limit = limit > excess + 200 ? limit - excess : 0;  // a stub of a few lines helps nobody
    bool const source = section == Section::reference_source || section == Section::kernel_source;
    state.texts[section] = shorten(original, limit, source);
  }
  if (std::find(state.cut_order.begin(), state.cut_order.end(), section) == state.cut_order.end()) {
    state.cut_order.push_back(section);
  }
  return true;
}

Status check_context(PromptRole role, PromptContext const& context) {
  auto const missing = [&](std::string_view field, std::string_view why) {
    return make_error(ErrorCode::invalid_argument, std::string(to_string(role)) + " prompt: PromptContext::" +
                                                       std::string(field) + " is empty; " + std::string(why));
  };
  if (context.signature.function.empty()) return missing("signature", "expected the task's entry signature");
  if (context.sizes.empty()) return missing("sizes", "expected the task's size cases");
  if (context.reference_source.empty()) return missing("reference_source", "expected the reference launcher");
  if ((role == PromptRole::coder || role == PromptRole::judge) && context.kernel_source.empty()) {
    return missing("kernel_source", "the coder and the judge work on the current kernel");
  }
  return Ok{};
}

}  // namespace

Result<BuiltPrompt> build_role_prompt(PromptRole role, PromptContext const& context,
                                      PromptOptions const& options) {
  if (auto status = check_context(role, context); !status) return status.error();
  auto dir = find_prompts_dir(options.prompts_dir);
  if (!dir) return dir.error();
  auto tmpl = load_prompt_template(*dir, role);
  if (!tmpl) return tmpl.error();

  CutState state;
  state.siblings_kept = context.siblings.size();
  auto rendered = render(*tmpl, role, context, options, state);
  if (!rendered) return rendered.error();

  std::vector<Section> order = {Section::siblings, Section::findings, Section::errors,
                                Section::reference_source};
  // The coder edits the kernel and the judge reviews it: both need it whole.
  bool const kernel_cuttable = role == PromptRole::generator || role == PromptRole::planner;
  if (kernel_cuttable) order.push_back(Section::kernel_source);
  for (auto section : order) {
    while (rendered->tokens > options.max_prompt_tokens) {
      auto const excess = (rendered->tokens - options.max_prompt_tokens) * 4 + 64;
      if (!cut(context, state, section, excess)) break;
      rendered = render(*tmpl, role, context, options, state);
      if (!rendered) return rendered.error();
    }
  }
  if (rendered->tokens > options.max_prompt_tokens) {
    return make_error(ErrorCode::invalid_argument,
                      std::string(to_string(role)) + " prompt: about " + std::to_string(rendered->tokens) +
                          " tokens after shortening every section that may be shortened; the budget is " +
                          std::to_string(options.max_prompt_tokens) +
                          (kernel_cuttable ? "" : " (the current kernel is never shortened for this role)") +
                          "; raise max_prompt_tokens");
  }

  BuiltPrompt built;
  built.request.system = std::move(rendered->system);
  built.request.messages.push_back(LlmMessage{"user", std::move(rendered->user)});
  built.request.max_tokens = options.max_reply_tokens;
  built.request.temperature = options.temperature;
  for (auto section : state.cut_order) {
    built.cuts.push_back(
        PromptCut{std::string(section_name(section)), cut_description(context, state, section)});
  }
  built.estimated_tokens = rendered->tokens;
  built.template_file = tmpl->file;
  return built;
}

Result<BuiltPrompt> build_generator_prompt(PromptContext const& context, PromptOptions const& options) {
  auto generator_options = options;
  generator_options.edit_format = EditFormat::whole_file;  // a generator writes a new file
  return build_role_prompt(PromptRole::generator, context, generator_options);
}

Result<BuiltPrompt> build_planner_prompt(PromptContext const& context, PromptOptions const& options) {
  return build_role_prompt(PromptRole::planner, context, options);
}

Result<BuiltPrompt> build_coder_prompt(PromptContext const& context, PromptOptions const& options) {
  return build_role_prompt(PromptRole::coder, context, options);
}

Result<BuiltPrompt> build_judge_prompt(PromptContext const& context, PromptOptions const& options) {
  return build_role_prompt(PromptRole::judge, context, options);
}

}  // namespace kopt
