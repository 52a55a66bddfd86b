// `kopt bench` inputs (include/kopt/suite_bench.hpp): a kopt.bench/1 document read back to merge the parts
// of a sharded run (bench_from_json) and, on the same bytes, the --shard value (parse_bench_shard).
// Seeds: docs/results/**/bench.json.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "kopt/suite_bench.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const text(reinterpret_cast<char const*>(data), size);
  (void)kopt::parse_bench_shard(text);
  auto const document = nlohmann::json::parse(text, nullptr, false);
  if (!document.is_discarded()) (void)kopt::bench_from_json(document, "fuzz/bench.json");
  return 0;
}
