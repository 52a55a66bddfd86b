// JSON encoding of the pieces several reports share: the device, timing statistics, kernel timings.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "kopt/device.hpp"
#include "kopt/eval.hpp"
#include "report/json_cursor.hpp"

namespace kopt::report_json {

nlohmann::json encode(DeviceCeilings const& ceilings);
nlohmann::json encode(DeviceInfo const& device);
nlohmann::json encode(SampleStats const& stats);
nlohmann::json encode(KernelTiming const& timing);
nlohmann::json encode(std::optional<KernelTiming> const& timing);

DeviceCeilings decode_ceilings(JsonCursor const& cursor);
DeviceInfo decode_device(JsonCursor const& cursor);
SampleStats decode_stats(JsonCursor const& cursor);
KernelTiming decode_timing(JsonCursor const& cursor);
std::optional<KernelTiming> decode_optional_timing(JsonCursor const& cursor);

// Checks the document's "schema" field; records an error naming the expected schema otherwise.
void expect_schema(JsonCursor const& document, std::string_view schema);

}  // namespace kopt::report_json
