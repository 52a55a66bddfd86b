// One candidate's text made to live beside others in one launcher-mode source: the size dispatch's variants
// (docs/strategies.md, "Dispatch by size") and a chain's stages ("Chains"). Private to src/propose.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

// What a variant calls its entry: the C name belongs to the combined source's own entry, and the evaluator
// must find that host function, not a variant's kernel, under it (detect_mode).
inline constexpr std::string_view kVariantEntry = "kopt_variant_entry";

// A variant's text: #include lines moved out (into `includes`, each once), kopt annotations made plain
// comments, `extern "C"` taken off and the entry `entry` renamed kVariantEntry; the macros it defines are
// collected (they are restored after it) and its `// kopt:arch` must agree with `arch` (set from the first
// variant that has one). Errors (invalid_argument) name `where`: an `extern "C" { ... }` block, another
// architecture.
struct VariantText {
  std::string body;
  std::vector<std::string> macros;
};
Result<VariantText> variant_text(std::string const& source, std::string const& entry,
                                 std::vector<std::string>& includes, std::string& arch,
                                 std::string const& where);

// `kopt_call`, with `task`'s parameters, that runs the variant `source` of mode `mode`: a kernel-mode
// variant launched as kopt launches it (kernel_launcher), a launcher its entry; returning the variant's
// status where the task's launcher returns cudaError_t.
Result<std::string> variant_call(TaskSpec const& task, std::string const& source, CandidateMode mode,
                                 std::string const& where);

// The variant's body and call in `namespace name`, after a `heading` comment, its macros saved before it
// and restored after it (undefined where they were).
std::string namespaced_variant(VariantText const& text, std::string const& call, std::string const& name,
                               std::string const& heading);

}  // namespace kopt
