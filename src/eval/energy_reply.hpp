// From the worker's `energy` reply to an EnergyReport, and the size case it measures: pure, so that
// tests/eval checks the mapping without a GPU.
#pragma once

#include <string>

#include "kopt/eval.hpp"
#include "kopt/task.hpp"
#include "kopt/worker/client.hpp"

namespace kopt {

// The size case named `name`, or (empty name) the last one that is timed; nullptr when there is none.
SizeCase const* energy_size(TaskSpec const& task, std::string const& name);

// Options outside their ranges: invalid_argument naming the option (window_s > 0, cooldown_s >= 0,
// trials >= 1).
Status check_energy_options(EnergyOptions const& options);

// Fills the candidate's status and both measurements (and the ratio) from `reply`. A worker that died
// makes the candidate runtime_error (timeout when its watchdog fired); an {"error": ...} reply is an
// Error with the worker's code and message ("energy: unavailable: ..." when NVML cannot measure).
Status apply_energy_reply(worker::Reply const& reply, EnergyReport& report);

}  // namespace kopt
