// The scientific suite's references use the conversions shared by every suite (suites/common/element.cuh).
#pragma once
#include "../common/element.cuh"

namespace scientific_suite {
using namespace kopt_suite;
}  // namespace scientific_suite
