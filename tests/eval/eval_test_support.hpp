// Shared helpers for the eval tests: the examples' tasks, a made-up H200-like device, timings.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "kopt/device.hpp"
#include "kopt/eval.hpp"
#include "kopt/task.hpp"
#include "support/temp_dir.hpp"

namespace kopt::eval_test {

using TempDir = kopt::test::TempDir;

// examples/vector_add: c = a + b, bytes = 12*n, flops = n; sizes odd (verify only), medium
// (n = 2^20) and large (n = 2^26).
inline TaskSpec vector_add_task() {
  auto task = load_task(KOPT_SOURCE_DIR "/examples/vector_add");
  if (!task) {
    ADD_FAILURE() << task.error().message;
    return TaskSpec{};
  }
  return std::move(task.value());
}

inline SizeCase const& size_named(TaskSpec const& task, std::string const& name) {
  for (auto const& size : task.sizes) {
    if (size.name == name) return size;
  }
  throw std::logic_error("no size case " + name);
}

// 50 MiB of L2, 4 TB/s copy bandwidth, 60 TFLOP/s FP32, 1 PFLOP/s tensor.
inline DeviceInfo test_device() {
  DeviceInfo device;
  device.name = "Test GPU";
  device.cc_major = 9;
  device.l2_bytes = 50LL * 1024 * 1024;
  device.ceilings.dram_bytes_per_s = 4.0e12;
  device.ceilings.fp32_flops_per_s = 6.0e13;
  device.ceilings.tensor_flops_per_s = 1.0e15;
  return device;
}

inline KernelTiming timing(double median_us, std::optional<double> graph_median_us = std::nullopt) {
  KernelTiming t;
  t.us.count = 10;
  t.us.median = t.us.min = t.us.max = t.us.mean = t.us.q1 = t.us.q3 = median_us;
  if (graph_median_us) {
    SampleStats g;
    g.count = 10;
    g.median = g.min = g.max = g.mean = g.q1 = g.q3 = *graph_median_us;
    t.graph_us = g;
  }
  return t;
}

// A worker reply's sample statistics with every figure equal to `median`.
inline nlohmann::json stats(double median) {
  return nlohmann::json{{"count", 10},    {"median", median}, {"min", median}, {"max", median},
                        {"mean", median}, {"q1", median},     {"q3", median}};
}

}  // namespace kopt::eval_test
