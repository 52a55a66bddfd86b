// What `kopt generate` prints: the kopt.generate/1 document and the table of attempts. In the output
// layer (src/report) with every other renderer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kopt/generate.hpp"

namespace kopt {

nlohmann::json generate_to_json(GenerateResult const& result);
std::string render_generate(GenerateResult const& result);

}  // namespace kopt
