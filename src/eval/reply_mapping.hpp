// Maps worker replies (and worker deaths) onto CandidateReport / TaskCheckReport.
#pragma once

#include "kopt/device.hpp"
#include "kopt/eval.hpp"
#include "kopt/worker/client.hpp"

namespace kopt {

// What the evaluator must do with the worker after a reply.
enum class WorkerAfterReply {
  keep,
  // The verdict could not be read completely (worker/client/verdict_messages.hpp): the candidate is
  // rejected, and a worker that wrote it is not trusted with the next one.
  discard,
};

// Every candidate leaves with exactly one status. Error only when kopt itself could not run
// (the reference failed, the request was malformed).
Result<WorkerAfterReply> apply_reply(TaskSpec const& task, DeviceInfo const& device,
                                     worker::Reply const& reply, CandidateReport& report);
Status apply_check_reply(TaskSpec const& task, worker::Reply const& reply, TaskCheckReport& report);

}  // namespace kopt
