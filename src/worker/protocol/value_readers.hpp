// Strict readers of the values that several messages of the worker protocol carry (stats, timings,
// artifacts, the device description), on top of FieldReader. Private to src/worker/protocol.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kopt/device.hpp"
#include "kopt/measure.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/verdict_messages.hpp"
#include "worker/protocol/field_reader.hpp"

namespace kopt::worker {

SampleStats read_stats(nlohmann::json const& j, std::string const& where, std::string& error);

// `graph_us` is always present in an evaluate verdict (null when there are no graph figures) and absent
// in check_task's timings when there are none.
enum class GraphField { present, may_be_absent };
TimingFields read_timing(nlohmann::json const& j, std::string const& where, std::string& error,
                         GraphField graph = GraphField::present);

ArtifactRef read_artifact(nlohmann::json const& j, std::string const& where, std::string& error);
DeviceInfo read_device_info(nlohmann::json const& j, std::string const& where, std::string& error);

}  // namespace kopt::worker
