// Launchers are called through a generated trampoline appended to their source:
//   extern "C" int kopt_trampoline_<entry>(void** args)
// which unpacks the argument array (args[i] points at parameter i) with the launcher's own
// parameter types, so the worker needs no per-signature code and no libffi, and returns the launcher's
// status (0 for a void launcher, the cudaError_t it returns otherwise). Static assertions check the
// launcher against the task's signature at compile time (return type, arity, pointer-ness, element sizes,
// streams).
#pragma once

#include <string>

#include "kopt/task.hpp"

namespace kopt {

std::string trampoline_symbol(Signature const& signature);
std::string trampoline_source(Signature const& signature);

}  // namespace kopt
