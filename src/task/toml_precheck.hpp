// The TOML pre-pass now lives in kopt_common (kopt/detail/toml_precheck.hpp), so that every reader of TOML
// text runs it; this header keeps the task module's name for it.
#pragma once

#include "kopt/detail/toml_precheck.hpp"

namespace kopt::task_detail {

using detail::precheck_toml;
using detail::TomlProblem;

}  // namespace kopt::task_detail
