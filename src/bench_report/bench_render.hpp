// Parts of the bench's renderings shared by the text and Markdown tables.
#pragma once

#include <string>

#include "kopt/suite_bench.hpp"

namespace kopt::bench_detail {

// The "evidence for the gaps" section (rows profiled with --profile-gaps); empty when no row has evidence.
std::string render_evidence(BenchSummary const& summary, bool markdown);

// A bench of PyTorch problems (summary.torch set): its header, one row per problem at the `problem` size
// case, fast_p, the geomeans and the counts, the flags and notes.
std::string render_torch_bench(BenchSummary const& summary, bool markdown);

}  // namespace kopt::bench_detail
