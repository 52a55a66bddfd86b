// kopt.eval/1, the JSON of an evaluation (docs/cli.md, "JSON documents"), and the encodings of the pieces
// other documents share (the device, sample statistics, kernel timings). In the eval module, next to the
// values they encode, so that every layer above can write and read an evaluation: the farm's coordinator
// decodes its workers' results with it, the report module renders from it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "kopt/device.hpp"
#include "kopt/eval.hpp"
#include "kopt/json_cursor.hpp"
#include "kopt/result.hpp"

namespace kopt {

inline constexpr std::string_view kEvalSchema = "kopt.eval/1";

nlohmann::json to_json(EvalReport const& report);
// Errors (invalid_spec) name the field path ("candidates[0].sizes[1].status") and what was expected.
Result<EvalReport> eval_report_from_json(nlohmann::json const& json);

namespace json_doc {

nlohmann::json encode(DeviceCeilings const& ceilings);
nlohmann::json encode(DeviceInfo const& device);
nlohmann::json encode(SampleStats const& stats);
nlohmann::json encode(KernelTiming const& timing);
nlohmann::json encode(std::optional<KernelTiming> const& timing);
nlohmann::json encode(EvaluationPlace const& place);

DeviceCeilings decode_ceilings(JsonCursor const& cursor);
DeviceInfo decode_device(JsonCursor const& cursor);
SampleStats decode_stats(JsonCursor const& cursor);
KernelTiming decode_timing(JsonCursor const& cursor);
std::optional<KernelTiming> decode_optional_timing(JsonCursor const& cursor);
// nullopt for null (reports written before kopt recorded where evaluations ran have no "ran_on").
std::optional<EvaluationPlace> decode_place(JsonCursor const& cursor);

// Checks the document's "schema" field; records an error naming the expected schema otherwise.
void expect_schema(JsonCursor const& document, std::string_view schema);

}  // namespace json_doc
}  // namespace kopt
