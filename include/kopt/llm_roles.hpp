// LLM roles: the prompts kopt sends to a model acting as generator, planner, coder or judge, and
// the parsing of what comes back. Prompts are versioned text templates (prompts/<role>.v1.md) filled from a
// PromptContext of plain values and kept under a token budget by shortening the least important sections
// first. Replies yield a kernel (a fenced block, or SEARCH/REPLACE edits applied to the current kernel), a
// plan with a choice, or a verdict; a reply that does not is a typed failure whose message can be sent back
// to the model. No GPU, no network. See docs/llm.md, "Roles, prompts and edits".
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "kopt/dtype.hpp"
#include "kopt/llm.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

enum class PromptRole { generator, planner, coder, judge };
std::string_view to_string(PromptRole role) noexcept;

// How a kernel comes back: the complete file in one fenced block, or SEARCH/REPLACE blocks against the
// current kernel (coder only; the generator always writes whole files).
enum class EditFormat { whole_file, search_replace };
std::string_view to_string(EditFormat format) noexcept;

// ---- what a prompt is built from -----------------------------------------------------------------------

struct PromptTiming {
  std::string size;  // size case name
  double median_us = 0;
  std::optional<double> speedup;  // over the reference, when known
};

// A sibling in the search tree (an alternative tried from the same parent) and how it went, in one line:
// "vectorize_global_access: correct, 1.7x faster on large" or "use_warp_shuffle: wrong on size odd".
struct SiblingOutcome {
  std::string name;
  std::string outcome;
};

// A choice the planner may name: a library strategy or a catalog strategy.
struct PromptOption {
  std::string name;
  std::string description;
  std::string applies_when;  // empty: not stated
};

// Everything a role's prompt may show, as plain values (fill it from a TaskSpec, the strategy library, the
// store and the insight source). Empty fields leave their section out of the prompt.
struct PromptContext {
  // the task
  std::string task_name;
  std::string description;
  std::string family;
  Signature signature;
  DType dtype = DType::f32;     // the main element type
  std::vector<SizeCase> sizes;  // every size case; the kernel must be correct on all
  std::vector<std::pair<DType, ToleranceSpec>> tolerances;  // per output dtype (TaskSpec::tolerance_for)
  bool kernel_mode = false;  // candidates are __global__ kernels launched by kopt ([launch]), not launchers
  std::string reference_path;
  std::string reference_source;  // the ground truth
  // the strategy chosen for this step (generator, coder) and the planner's choices
  std::string strategy_name;
  std::string strategy_description;
  std::string strategy_applies_when;
  std::vector<PromptOption> options;
  // the current kernel and what is known about it
  std::string kernel_source;
  std::vector<PromptTiming> times;
  std::string findings;                  // describe_for_prompt(insights, ...)
  std::vector<SiblingOutcome> siblings;  // most relevant first: the budget cuts from the end
  std::string errors;                    // excerpts of the last attempt's compiler or verification errors
  std::string plan;                      // the planner's plan (coder)
};

struct PromptOptions {
  std::optional<std::filesystem::path> prompts_dir;  // else find_prompts_dir(nullopt)
  std::size_t max_prompt_tokens = 24'000;            // system + user, estimated by estimate_tokens
  EditFormat edit_format = EditFormat::whole_file;   // coder only
  int max_reply_tokens = 8'192;                      // LlmRequest::max_tokens
  std::optional<double> temperature;
};

// A section the budget shortened, and how: "sibling outcomes" / "3 of 5 left out".
struct PromptCut {
  std::string section;
  std::string what;
};

struct BuiltPrompt {
  LlmRequest request;                // system prompt + one user message
  std::vector<PromptCut> cuts;       // in the order they were made; also named at the end of the prompt
  std::size_t estimated_tokens = 0;  // of system + user
  std::filesystem::path template_file;
};

// Tokens of a text as kopt estimates them: bytes / 4, rounded up (close for code and English with common
// tokenizers; the budget leaves the rest to max_prompt_tokens' margin).
std::size_t estimate_tokens(std::string_view text) noexcept;

// Where the prompt templates are: `explicit_dir` when given, else $KOPT_PROMPTS, else a `prompts` folder
// (or share/kopt/prompts) holding generator.v1.md next to or up to three levels above the running
// executable, else ./prompts. Error not_found names the places tried.
Result<std::filesystem::path> find_prompts_dir(std::optional<std::filesystem::path> const& explicit_dir);

// A role's template: the text after the line `[[system]]` up to the line `[[user]]`, and the text after it.
// Lines before `[[system]]` are comments. `{{name}}` is a placeholder; a line `{{#if name}}` ... `{{/if}}`
// keeps what is between only when `name` is not empty (no nesting).
struct PromptTemplate {
  std::filesystem::path file;
  std::string system;
  std::string user;
  int system_line = 0;  // the file line where each part starts (for errors)
  int user_line = 0;
};
inline constexpr int kPromptVersion = 1;
// Reads <dir>/<role>.v1.md and checks every placeholder against prompt_placeholders(). Errors (invalid_spec)
// name the file and line: an unknown placeholder, an unclosed `{{`, an unbalanced `{{#if}}`.
Result<PromptTemplate> load_prompt_template(std::filesystem::path const& dir, PromptRole role);
Result<PromptTemplate> parse_prompt_template(std::string_view text, std::filesystem::path const& file);
// Fills a part of a template (`first_line`: its line in `file`, for errors). A value missing from `values`
// is an error naming the placeholder, file and line.
Result<std::string> render_prompt_text(std::string_view text,
                                       std::map<std::string, std::string> const& values,
                                       std::filesystem::path const& file, int first_line);
// The placeholder names templates may use.
std::vector<std::string> const& prompt_placeholders();

// Builds the role's request from the context. Over budget, sections are shortened in this order until the
// prompt fits: sibling outcomes (dropped from the end), findings (whole lines from the end), error excerpts
// (lines from the end), the reference source, then the current kernel (head and tail kept; never in
// search_replace format, whose SEARCH text must quote it). Error invalid_argument when it still does not fit.
Result<BuiltPrompt> build_generator_prompt(PromptContext const& context, PromptOptions const& options = {});
Result<BuiltPrompt> build_planner_prompt(PromptContext const& context, PromptOptions const& options = {});
Result<BuiltPrompt> build_coder_prompt(PromptContext const& context, PromptOptions const& options = {});
Result<BuiltPrompt> build_judge_prompt(PromptContext const& context, PromptOptions const& options = {});
Result<BuiltPrompt> build_role_prompt(PromptRole role, PromptContext const& context,
                                      PromptOptions const& options = {});

// ---- replies ---------------------------------------------------------------------------------------------

enum class ReplyFailureKind {
  no_code,         // neither a usable fenced block nor SEARCH/REPLACE blocks
  unclosed_fence,  // the reply ends inside a fenced block (cut at max_tokens?)
  malformed_edit,  // a SEARCH/REPLACE block lacks its ======= or >>>>>>> REPLACE line, or SEARCH is empty
  edit_not_found,  // a block's SEARCH text matches no place in the kernel
  edit_ambiguous,  // a block's SEARCH text matches more than one place
  no_plan,         // a planner reply without a plan paragraph
  no_choice,       // a planner reply without a CHOICE line
  unknown_choice,  // the CHOICE names none of the options
  no_verdict,      // a judge reply without a VERDICT line
};
std::string_view to_string(ReplyFailureKind kind) noexcept;

// Why a reply was not usable; `message` is written to be sent back to the model as it is.
struct ReplyFailure {
  ReplyFailureKind kind = ReplyFailureKind::no_code;
  std::string message;
};

// A parsed value or a ReplyFailure (like Result, with a typed failure).
template <class T>
class [[nodiscard]] ReplyResult {
 public:
  ReplyResult(T value) : data_(std::move(value)) {}                 // NOLINT(google-explicit-constructor)
  ReplyResult(ReplyFailure failure) : data_(std::move(failure)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const noexcept { return std::holds_alternative<T>(data_); }
  explicit operator bool() const noexcept { return ok(); }
  T const& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T const& operator*() const& { return value(); }
  T const* operator->() const { return &value(); }
  ReplyFailure const& failure() const& { return std::get<ReplyFailure>(data_); }

 private:
  std::variant<T, ReplyFailure> data_;
};

struct FencedBlock {
  std::string language;  // the tag after the opening fence, lower case ("" when none)
  std::string code;      // without the fences; ends with a newline unless empty
  int first_line = 0;    // 1-based line of the opening fence in the reply
  bool closed = true;    // false: the reply ended inside it
};
// Every fenced block (``` or longer, closed by at least as many backticks), in order.
std::vector<FencedBlock> fenced_blocks(std::string_view reply);
// The kernel of a reply: the last block tagged cuda, cu, cuh, cpp, c++, cc, c or untagged; else the only
// block whatever its tag. Failures: no_code, unclosed_fence.
ReplyResult<std::string> extract_kernel(std::string_view reply);

struct SearchReplace {
  std::string search;   // whole lines, each ending with "\n"
  std::string replace;  // whole lines ("" deletes the SEARCH text)
  int line = 0;         // 1-based line of the SEARCH marker in the reply
};
// Blocks of the form "<<<<<<< SEARCH\n...\n=======\n...\n>>>>>>> REPLACE" (5 to 9 marker characters, CRLF
// accepted), anywhere in the reply (inside fences or not). No blocks: an empty vector. Failure
// malformed_edit names the block: a missing divider or end marker, or an empty SEARCH.
ReplyResult<std::vector<SearchReplace>> parse_search_replace(std::string_view reply);

struct EditedSource {
  std::string source;
  std::vector<std::string> notes;  // e.g. "block 2: matched ignoring trailing whitespace"
};
// Applies the blocks in order, each to the result of the ones before. SEARCH must match exactly one place
// (overlapping matches count); when it matches none exactly, a match of whole lines ignoring trailing
// whitespace is tried and reported in `notes`. A CRLF source keeps its line endings. Any block that fails
// fails the whole edit; the message lists every failing block ("block 2: SEARCH text matches 3 places;
// include more context") — failures edit_not_found or edit_ambiguous (the first failing block's).
ReplyResult<EditedSource> apply_edits(std::string_view source, std::vector<SearchReplace> const& edits);

struct KernelReply {
  std::string source;
  bool from_edits = false;
  std::vector<std::string> notes;
};
// The prose of a reply, its rationale ("Strategy softmax_warp_per_row: each warp owns one row, ..."): the
// reply without its fenced code blocks (an unclosed one to the end) and SEARCH/REPLACE blocks, runs of blank
// lines kept to one, whitespace-trimmed. Longer than `max_bytes`: cut to at most `max_bytes` bytes on a
// UTF-8 character boundary and " ..." appended. "" when the reply is only code.
std::string reply_prose(std::string_view reply, std::size_t max_bytes = 1500);

// A generator or coder reply: SEARCH/REPLACE blocks applied to `current_source` when the reply has any,
// else extract_kernel.
ReplyResult<KernelReply> parse_kernel_reply(std::string_view reply, std::string_view current_source);

struct PlannerReply {
  std::string plan;    // the paragraph after "PLAN:" (else the last paragraph before the CHOICE line)
  std::string choice;  // as spelled in `options` when given, else as written
};
// The last line of the form "CHOICE: name" (case-insensitive, markdown emphasis and backticks ignored).
// With `options`, the name must be one of them (case-insensitive): failure unknown_choice lists them.
ReplyResult<PlannerReply> parse_planner_reply(std::string_view reply,
                                              std::vector<std::string> const& options = {});

struct JudgeReply {
  bool accept = false;
  std::string reason;  // the text after the verdict word, else the paragraph before it
};
// The last line "VERDICT: accept" or "VERDICT: reject" (case-insensitive; "reject: reason" also read).
ReplyResult<JudgeReply> parse_judge_reply(std::string_view reply);

}  // namespace kopt
