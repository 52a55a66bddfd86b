// Maps worker replies (and worker deaths) onto CandidateReport / TaskCheckReport.
#pragma once

#include "kopt/device.hpp"
#include "kopt/eval.hpp"
#include "worker/client/worker_client.hpp"

namespace kopt {

// Every candidate leaves with exactly one status. Error only when kopt itself could not run
// (the reference failed, the request was malformed).
Status apply_reply(TaskSpec const& task, DeviceInfo const& device, worker::Reply const& reply,
                   CandidateReport& report);
Status apply_check_reply(TaskSpec const& task, worker::Reply const& reply, TaskCheckReport& report);

KernelTiming kernel_timing_from_json(nlohmann::json const& j);

}  // namespace kopt
