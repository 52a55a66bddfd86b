// Host code that the proposer generates around library kernels (the size dispatch, the accumulating
// adapter): kopt's integer expressions as C++, and a host function that launches a kernel-mode source's
// kernel as the evaluator would. Private to src/propose.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

// A kopt expression (docs/task-format.md, "Expressions") as C++ over long long: every name widened before
// any arithmetic, min/max/ceil_div/abs/log2/pow/sqrt spelled as the helpers below.
std::string cpp_expression(std::string const& text);

// Those helpers (in a namespace of their own, with a using-directive), with kopt's meaning: floor for
// log2 and sqrt, ceil_div rounding up. Put once before the code that uses cpp_expression.
std::string_view cpp_expression_helpers();

// The task's pointer parameter `name` as an argument to a function or kernel that takes its scalars: the
// name, or, for a buffer of vector or complex elements (float2*, cufftComplex*), `kopt_any_pointer{name}`,
// which converts to the pointer the callee takes (float*). The helpers below define kopt_any_pointer.
std::string pointer_argument(TaskSpec const& task, std::string const& name);

// The headers that declare the task's element types where cuda_runtime.h does not (cufftComplex:
// <cufft.h>), each included once for host compilers (NVRTC never sees the task's signature).
std::string element_type_includes(TaskSpec const& task);

// "float* out, const float* in, int n": the task's parameters as a C parameter list; and their names.
std::string parameter_list(TaskSpec const& task);
std::string argument_list(TaskSpec const& task);

// The stream generated host code launches and copies on: the name of the launcher's cudaStream_t
// parameter, or cudaStreamPerThread when it takes none (the default stream kopt builds launchers for).
std::string launch_stream(TaskSpec const& task);

// Generated host code (statements of a launcher with the task's signature) keeping a device buffer `name` of
// at least `bytes` (a C++ expression over the launcher's parameters) for later calls, grown when a call needs
// more (an adapter's copy or sum buffer, a chain's intermediate). When it cannot be allocated the launcher
// returns, cudaErrorMemoryAllocation where it returns a status, its outputs left as they were (verification
// fails).
std::string grow_only_buffer(TaskSpec const& task, std::string const& name, std::string const& bytes);

// The last statement of a generated launcher with the task's signature: `  return cudaPeekAtLastError();\n`
// when the task's launcher returns cudaError_t (the status of its launches, left set for the caller as
// well), nothing for a void one.
std::string launcher_status(TaskSpec const& task);

// A host function `void function(<the task's parameters>)` that launches the kernel-mode `source`'s kernel
// with its `// kopt:launch` grid, block, shared memory and args= (the task's [launch] where the line leaves
// a field out; without args=, the task's parameters but its stream), evaluated in C++, on launch_stream(),
// raising the
// dynamic shared memory limit above 48 KiB. The launch may read the launcher's integer scalars, the
// source's macros and knobs; anything else is an error (invalid_argument) naming `where`. A kernel named
// like the entry is called `entry_rename` (the caller renames it in the source: the entry's C name is the
// host function's). `extra_params` ("const float* kopt_copy_x") follow the task's: an `args=` entry may name
// them.
Result<std::string> kernel_launcher(TaskSpec const& task, std::string const& source,
                                    std::string const& function, std::string const& entry_rename,
                                    std::string const& where,
                                    std::vector<std::string> const& extra_params = {});

}  // namespace kopt
