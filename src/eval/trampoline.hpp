// Launchers are called through a generated trampoline appended to their source:
//   extern "C" void kopt_trampoline_<entry>(void** args)
// which unpacks the argument array (args[i] points at parameter i) with the launcher's own
// parameter types, so the worker needs no per-signature code and no libffi. Static assertions check
// the launcher against the task's signature at compile time (arity, pointer-ness, element sizes).
#pragma once

#include <string>

#include "kopt/task.hpp"

namespace kopt {

std::string trampoline_symbol(Signature const& signature);
std::string trampoline_source(Signature const& signature);

}  // namespace kopt
