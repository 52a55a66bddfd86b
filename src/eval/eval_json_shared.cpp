#include <fmt/format.h>

#include "kopt/eval_json.hpp"

namespace kopt::json_doc {

nlohmann::json encode(DeviceCeilings const& ceilings) {
  return {
      {"dram_bytes_per_s", number_to_json(ceilings.dram_bytes_per_s)},
      {"fp32_flops_per_s", number_to_json(ceilings.fp32_flops_per_s)},
      {"tensor_flops_per_s", number_to_json(ceilings.tensor_flops_per_s)},
  };
}

nlohmann::json encode(DeviceInfo const& device) {
  return {
      {"index", device.index},
      {"name", device.name},
      {"arch", device.arch()},
      {"cc_major", device.cc_major},
      {"cc_minor", device.cc_minor},
      {"sm_count", device.sm_count},
      {"l2_bytes", device.l2_bytes},
      {"memory_bytes", device.memory_bytes},
      {"clock_khz", device.clock_khz},
      {"driver_version", device.driver_version},
      {"runtime_version", device.runtime_version},
      {"uuid", device.uuid},
      {"ceilings", encode(device.ceilings)},
      {"isolation", device.isolation},
  };
}

nlohmann::json encode(SampleStats const& stats) {
  return {
      {"count", stats.count},
      {"median", number_to_json(stats.median)},
      {"min", number_to_json(stats.min)},
      {"max", number_to_json(stats.max)},
      {"mean", number_to_json(stats.mean)},
      {"q1", number_to_json(stats.q1)},
      {"q3", number_to_json(stats.q3)},
      {"iqr", number_to_json(stats.iqr())},  // derived, for readers; ignored when read back
  };
}

nlohmann::json encode(KernelTiming const& timing) {
  return {
      {"us", encode(timing.us)},
      {"graph_us", timing.graph_us ? encode(*timing.graph_us) : nlohmann::json(nullptr)},
      {"device_wide", timing.device_wide},
      {"warmup_ms", number_to_json(timing.warmup_ms)},
  };
}

nlohmann::json encode(std::optional<KernelTiming> const& timing) {
  return timing ? encode(*timing) : nlohmann::json(nullptr);
}

DeviceCeilings decode_ceilings(JsonCursor const& cursor) {
  DeviceCeilings ceilings;
  ceilings.dram_bytes_per_s = cursor.field("dram_bytes_per_s").as_number();
  ceilings.fp32_flops_per_s = cursor.field("fp32_flops_per_s").as_number();
  ceilings.tensor_flops_per_s = cursor.field("tensor_flops_per_s").as_number();
  return ceilings;
}

DeviceInfo decode_device(JsonCursor const& cursor) {
  DeviceInfo device;
  device.index = cursor.field("index").as_int();
  device.name = cursor.field("name").as_string();
  device.cc_major = cursor.field("cc_major").as_int();
  device.cc_minor = cursor.field("cc_minor").as_int();
  device.sm_count = cursor.field("sm_count").as_int();
  device.l2_bytes = cursor.field("l2_bytes").as_int64();
  device.memory_bytes = cursor.field("memory_bytes").as_int64();
  device.clock_khz = cursor.field("clock_khz").as_int();
  device.driver_version = cursor.field("driver_version").as_int();
  device.runtime_version = cursor.field("runtime_version").as_int();
  device.uuid = cursor.field("uuid").as_string();
  device.ceilings = decode_ceilings(cursor.field("ceilings"));
  device.isolation = cursor.field("isolation").as_string();
  return device;
}

SampleStats decode_stats(JsonCursor const& cursor) {
  SampleStats stats;
  stats.count = cursor.field("count").as_int();
  stats.median = cursor.field("median").as_number();
  stats.min = cursor.field("min").as_number();
  stats.max = cursor.field("max").as_number();
  stats.mean = cursor.field("mean").as_number();
  stats.q1 = cursor.field("q1").as_number();
  stats.q3 = cursor.field("q3").as_number();
  return stats;
}

KernelTiming decode_timing(JsonCursor const& cursor) {
  KernelTiming timing;
  timing.us = decode_stats(cursor.field("us"));
  JsonCursor graph = cursor.field("graph_us");
  if (!graph.is_null()) timing.graph_us = decode_stats(graph);
  timing.device_wide = cursor.field("device_wide").as_bool();
  timing.warmup_ms = cursor.field("warmup_ms").as_number();
  return timing;
}

std::optional<KernelTiming> decode_optional_timing(JsonCursor const& cursor) {
  if (cursor.is_null()) return std::nullopt;
  return decode_timing(cursor);
}

nlohmann::json encode(EvaluationPlace const& place) {
  return {{"host", place.host},
          {"worker", place.worker},
          {"device_index", place.device_index},
          {"device_uuid", place.device_uuid},
          {"device_name", place.device_name}};
}

std::optional<EvaluationPlace> decode_place(JsonCursor const& cursor) {
  if (cursor.is_null()) return std::nullopt;
  EvaluationPlace place;
  place.host = cursor.field("host").as_string();
  place.worker = cursor.field("worker").as_string();
  place.device_index = cursor.field("device_index").as_int();
  place.device_uuid = cursor.field("device_uuid").as_string();
  place.device_name = cursor.field("device_name").as_string();
  return place;
}

void expect_schema(JsonCursor const& document, std::string_view schema) {
  JsonCursor field = document.field("schema");
  if (field.as_string() != schema) field.fail(fmt::format("\"{}\"", schema));
}

}  // namespace kopt::json_doc
