// The task: what a kernel must compute, on which inputs, at which sizes, to which tolerance.
// A task is a folder holding task.toml plus CUDA sources; docs/task-format.md is the reference.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "kopt/dtype.hpp"
#include "kopt/expr.hpp"
#include "kopt/result.hpp"

namespace kopt {

// What the kernel does with a buffer. `scratch` is the kernel's own workspace (a two-pass reduction's
// partial sums handed in by the caller): it holds poison when each verification trial starts (not before
// the verification after timing), may be read and written, and is never compared, since its contents
// depend on how the kernel splits the work.
enum class Role { input, output, inout, scratch };
std::string_view to_string(Role role) noexcept;
// Generated and uploaded before a run (input, inout).
constexpr bool has_initial_contents(Role role) noexcept {
  return role == Role::input || role == Role::inout;
}
// Compared against the reference after a run (output, inout).
constexpr bool is_compared(Role role) noexcept {
  return role == Role::output || role == Role::inout;
}

// A generator parameter as written in the spec: a number, or a string that is either an integer
// expression over scalars ("N*C") or a keyword ("power_law"); the generator decides which.
using GeneratorParam = std::variant<double, std::string>;

// One parameter of the extern "C" entry launcher, in signature order.
struct Param {
  std::string name;
  std::string c_type;  // as written: "const float*", "int"
  bool is_pointer = false;
  DType dtype = DType::f32;  // element type for pointers, value type for scalars
  // Scalars of `dtype` per element of a pointer to a CUDA vector or complex type (2 for float2 and
  // cufftComplex, 4 for float4); 1 otherwise. A buffer's length counts elements, so it holds
  // length * lanes scalars.
  int lanes = 1;
  std::string type_header;       // the header that declares the element type ("<cufft.h>"), if any
  bool is_const = false;         // pointee is const
  bool is_stream = false;        // a cudaStream_t: neither a buffer nor a size; kopt passes its own stream
  std::string default_argument;  // as written after '=' ("1.0f"); empty when the parameter has none

  // A value a size case gives (an integer or floating-point size or coefficient).
  bool is_scalar() const noexcept { return !is_pointer && !is_stream; }
};

struct Signature {
  std::string function;  // launcher / kernel name
  std::vector<Param> params;
  bool returns_error = false;  // returns a cudaError_t (its launches' status) rather than void

  std::string_view return_type() const noexcept { return returns_error ? "cudaError_t" : "void"; }
  // The indices of the parameters a kernel-mode candidate's kernel takes, in order: all but a stream
  // (kopt launches the kernel on its own).
  std::vector<std::size_t> kernel_parameters() const;
};

// Parses `void softmax(float* out, const float* in, int N, int C)` (extern "C" optional).
Result<Signature> parse_signature(std::string const& text);

// How a buffer's contents are produced for each trial. `kind` selects the generator; params are
// interpreted by it (docs/task-format.md lists kinds and their params). Structured generators
// (csr, coo, ell, csc) fill several buffers at once; they are declared under [generators.<name>].
struct GeneratorSpec {
  std::string kind;                              // uniform, normal, int_uniform, constant, ...
  std::map<std::string, GeneratorParam> params;  // low/high/mean/std/value/...
  std::map<std::string, std::string> targets;    // structured: role-in-generator -> buffer name
};

struct BufferSpec {
  std::string name;
  Role role = Role::input;
  DType dtype = DType::f32;
  Expr length;    // elements of the parameter's type (a float2 is one element)
  int lanes = 1;  // scalars of dtype per element (Param::lanes): the buffer holds length * lanes scalars
  // Distributions cycled over trials (trial k uses generators[k % size]). Empty for outputs and for
  // buffers filled by a structured generator.
  std::vector<GeneratorSpec> generators;
  // False for an input the reference reads or updates for its own sake but whose values no output depends on
  // (a training-mode BatchNorm's running statistics, which PyTorch updates and does not use): a library
  // strategy may leave it unread (docs/task-format.md, `affects_outputs`).
  bool affects_outputs = true;
};

struct ScalarSpec {
  std::string name;
  DType dtype = DType::i32;
};

using ScalarValue = std::variant<std::int64_t, double>;

struct SizeCase {
  std::string name;
  std::map<std::string, ScalarValue, std::less<>> values;  // every scalar parameter is assigned
  bool verify_only = false;                                // checked, never timed
  // Integers of the case that the launcher does not take (`variables = { nnz = 40960 }`): usable like an
  // integer scalar in lengths, generator parameters and work; every size case defines the same names.
  std::map<std::string, std::int64_t, std::less<>> variables;
};

struct ToleranceSpec {
  double atol = 0.0;
  double rtol = 0.0;
  double mismatch_fraction = 0.0;  // fraction of elements allowed outside tolerance
};

// Which peak the work model's flops are held against (docs/task-format.md, "[work]").
enum class WorkMath {
  automatic,  // tensor cores when a buffer holds 16-bit floats, else FP32
  fp32,       // CUDA-core FP32 (BF16 storage with FP32 math)
  tensor,     // tensor cores
};

struct WorkModel {
  std::optional<Expr> bytes;  // minimum bytes moved through device memory per call
  std::optional<Expr> flops;  // floating-point operations per call
  WorkMath math = WorkMath::automatic;
};

// One argument of a kernel-mode launch whose kernel does not take the launcher's parameters in the
// launcher's order (docs/compile.md, "Kernel arguments"): a parameter of the task passed unchanged, or a
// value of `type` computed for each size case.
struct KernelArgument {
  std::string parameter;    // the task parameter's name; empty for a computed value
  bool converted = false;   // `f32(alpha)`: the task's double parameter, rounded to `type` (f32)
  DType type = DType::i32;  // computed: i32, i64, u32, u64 (from `expression`), f32, f64 (from `number`)
  Expr expression;          // integer: over the size case's scalars
  double number = 0.0;      // floating: a constant
  std::string text;         // as written, for messages
};

// Launch geometry for kernel-mode candidates (device code only): expressions over scalars.
struct LaunchSpec {
  std::string kernel;                // __global__ function name; defaults to the entry name
  std::vector<Expr> grid;            // 1 to 3 dimensions
  std::vector<Expr> block;           // 1 to 3 dimensions
  Expr shared_bytes;                 // dynamic shared memory
  std::vector<KernelArgument> args;  // empty: the launcher's parameters, in order
};

// What a task's reference is: a CUDA launcher (the default), or a PyTorch module computed by the PyTorch
// bridge (`[reference] torch = "problem.py"`, docs/pytorch.md).
enum class ReferenceKind : std::uint8_t { cuda, torch };

struct SourceSpec {
  std::filesystem::path path;          // absolute after loading: the .cu file, or the problem's .py file
  std::vector<std::string> libraries;  // cublas, cublasLt, cusparse, cufft ... linked when built (CUDA only)
  ReferenceKind kind = ReferenceKind::cuda;
  std::string precision;  // a PyTorch reference's precision: "fp32" or "bf16" (empty for CUDA)
  bool is_torch() const noexcept { return kind == ReferenceKind::torch; }
};

// A buffer of a chain's own, written by one stage and read by later ones (docs/task-format.md, "Chains"):
// never passed by the caller, never compared.
struct IntermediateSpec {
  std::string name;
  DType dtype = DType::f32;
  Expr length;  // elements, over the launcher's integer scalars
};

// One stage of a chain: a library family bound like a one-family task whose signature is `reads` (const
// pointers) then `writes`, plus the launcher's integer scalars (docs/task-format.md, "Chains").
struct StageSpec {
  std::string family;
  std::vector<std::string> reads;   // launcher pointer parameters and intermediates
  std::vector<std::string> writes;  // intermediates and launcher outputs
  std::map<std::string, std::string, std::less<>> strategy_params;
  std::map<std::string, std::string, std::less<>> binding;  // as TaskSpec::binding, over reads and writes
};

struct TaskSpec {
  std::filesystem::path dir;        // the task folder (absolute)
  std::filesystem::path spec_file;  // task.toml (absolute)
  std::string name;
  std::string description;  // plain language: what the kernel computes
  std::string family;       // optional, e.g. "row_softmax" (strategy library)
  Signature signature;
  std::vector<BufferSpec> buffers;  // pointer params, signature order
  std::vector<ScalarSpec> scalars;  // scalar params, signature order
  std::map<std::string, GeneratorSpec> structured_generators;
  std::vector<SizeCase> sizes;
  std::map<DType, ToleranceSpec> tolerance;  // per output dtype
  int trials = 3;                            // verification trials per size case (>= 3)
  SourceSpec reference;
  std::optional<SourceSpec> baseline;  // vendor library launcher, timed for comparison only
  WorkModel work;
  std::optional<LaunchSpec> launch;  // enables kernel-mode candidates
  // [strategy_params]: C++ expressions for the strategy library's templates (docs/strategies.md).
  std::map<std::string, std::string, std::less<>> strategy_params;
  // [binding]: how the roles of the library strategies' contracts are filled (docs/strategies.md,
  // "Binding"): role name -> a parameter of the entry, an integer expression over its integer scalars, a
  // number, or a slice of a buffer ("x + start", parse_pointer_slice), kept as written.
  std::map<std::string, std::string, std::less<>> binding;
  // [[stages]] and [[intermediates]]: a chain of library families run in order (no `family` then).
  std::vector<StageSpec> stages;
  std::vector<IntermediateSpec> intermediates;

  bool is_chain() const noexcept { return !stages.empty(); }
  // The family, or a chain's stages' families ("linear -> row_softmax").
  std::string family_label() const;
  BufferSpec const* find_buffer(std::string_view name) const;
  ToleranceSpec tolerance_for(DType dtype) const;  // falls back to a dtype default
  // Integer scalars of a size case as an expression environment (floating scalars are skipped).
  ScalarEnv env_for(SizeCase const& size) const;
};

// The size cases `names` selects (empty: every one), in the task's order: the order an evaluation's trial
// seeds follow (trial_seed's size index), in the worker and in kopt alike.
std::vector<SizeCase const*> select_size_cases(TaskSpec const& task, std::vector<std::string> const& names);

// Whether the task's roofline holds its flops against the tensor-core peak: its `[work] math`, else
// whether a buffer holds FP16/BF16.
bool tensor_cores_allowed(TaskSpec const& task);

// Loads and validates <dir>/task.toml (or a direct path to a .toml file).
Result<TaskSpec> load_task(std::filesystem::path const& dir_or_file);
// Parses spec text; `origin` names the file in error messages, `dir` resolves relative sources.
Result<TaskSpec> parse_task(std::string const& toml_text, std::filesystem::path const& origin,
                            std::filesystem::path const& dir);

// A [binding] value that gives a pointer role a slice of a buffer: "x + start" (docs/strategies.md,
// "Binding"): `pointer` a pointer parameter of `signature`, `offset` an integer expression over its integer
// scalars (elements of the role's type, counted from the start of the buffer). Nothing when `text` is not
// of that form.
struct PointerSlice {
  std::string pointer;
  std::string offset;
};
std::optional<PointerSlice> parse_pointer_slice(Signature const& signature, std::string_view text);

// task.toml's text with `roles` added to its [binding] table (created at the end when there is none), for
// `kopt strategies TASK --write-binding`. A role the table already has keeps its value (`kept` names it);
// values that are a parameter's name or an expression are written as strings, numbers as numbers. The
// text is otherwise unchanged (comments and layout kept). Error when the text is not TOML or defines
// `binding` other than as a [binding] table.
struct BindingTableEdit {
  std::string text;
  std::vector<std::string> written;  // "role = value" lines added
  std::vector<std::string> kept;     // roles the table already had
};
Result<BindingTableEdit> add_binding_entries(std::string const& toml_text,
                                             std::map<std::string, std::string, std::less<>> const& roles,
                                             std::string const& comment);

// Default tolerance when a task does not give one for a dtype.
ToleranceSpec default_tolerance(DType dtype) noexcept;

// `kopt init`: writes a task skeleton (task.toml with TODOs, reference.cu copied from the launcher)
// for the first extern "C" launcher in `launcher_source`.
struct InitResult {
  std::filesystem::path task_dir;
  std::vector<std::string> todos;  // what the user still has to fill in
};
Result<InitResult> init_task(std::filesystem::path const& launcher_source,
                             std::filesystem::path const& task_dir, bool overwrite);

}  // namespace kopt
