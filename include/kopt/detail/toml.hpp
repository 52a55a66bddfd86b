// The one place kopt includes toml++ (task specs, the strategy library, settings, LLM prices).
// include/kopt/detail/: headers that several modules share but that are not kopt's installed API (they
// need a third-party library the installed package does not promise); not installed.
// toml++ 3.3 asserts internal preconditions that malformed input can violate (a table header with no
// name, upstream marzer/tomlplusplus#301; a stray '}' where an array element belongs); after such a
// violation its parser goes on to report an ordinary parse_error. Those asserts are switched off here
// so that Debug builds report a bad spec instead of aborting, exactly as NDEBUG builds with GCC do.
// toml_precheck.hpp additionally rejects the known cases up front with clearer messages, and the text on
// which toml++ 3.3 reaches undefined behaviour (non-ASCII characters where it expects whitespace); every
// reader runs detail::precheck_toml before toml::parse.
#pragma once

#include "kopt/detail/toml_precheck.hpp"

#ifndef TOML_ASSERT
#define TOML_ASSERT(expr) static_assert(true)
#endif
#include <toml++/toml.h>
