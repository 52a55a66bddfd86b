// Facts about the worker's GPU and its ceilings (measured copy bandwidth, computed peaks).
#pragma once

#include "kopt/device.hpp"
#include "kopt/result.hpp"

namespace kopt::worker {

// `calibrate` measures the copy bandwidth (a few hundred MB copied); off under compute-sanitizer.
Result<DeviceInfo> query_device(int index, bool calibrate = true);

// Host-side latency of cudaDeviceSynchronize() on an idle device (median of many calls, µs): the
// floor against which leftover work on hidden streams is detected.
double idle_sync_latency_us();

}  // namespace kopt::worker
