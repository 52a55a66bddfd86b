#include "kopt/worker/protocol.hpp"

namespace kopt::worker {

using nlohmann::json;

json to_json(ArtifactRef const& ref) {
  json j{{"mode", ref.mode}, {"path", ref.path}, {"symbol", ref.symbol}};
  if (ref.mode == "kernel") {
    j["grid"] = ref.grid;
    j["block"] = ref.block;
    j["shared_bytes"] = ref.shared_bytes;
    j["param_sizes"] = ref.param_sizes;
  }
  return j;
}

ArtifactRef artifact_from_json(json const& j) {
  ArtifactRef ref;
  ref.mode = j.at("mode").get<std::string>();
  ref.path = j.at("path").get<std::string>();
  ref.symbol = j.at("symbol").get<std::string>();
  if (ref.mode == "kernel") {
    ref.grid = j.at("grid").get<std::vector<std::string>>();
    ref.block = j.at("block").get<std::vector<std::string>>();
    ref.shared_bytes = j.value("shared_bytes", std::string("0"));
    ref.param_sizes = j.value("param_sizes", std::vector<int>{});
  }
  return ref;
}

json to_json(SampleStats const& s) {
  return json{{"count", s.count}, {"median", s.median}, {"min", s.min}, {"max", s.max},
              {"mean", s.mean},   {"q1", s.q1},         {"q3", s.q3}};
}

SampleStats sample_stats_from_json(json const& j) {
  SampleStats s;
  s.count = j.at("count").get<int>();
  s.median = j.at("median").get<double>();
  s.min = j.at("min").get<double>();
  s.max = j.at("max").get<double>();
  s.mean = j.at("mean").get<double>();
  s.q1 = j.at("q1").get<double>();
  s.q3 = j.at("q3").get<double>();
  return s;
}

json to_json(DeviceInfo const& d) {
  return json{{"index", d.index},
              {"name", d.name},
              {"cc_major", d.cc_major},
              {"cc_minor", d.cc_minor},
              {"sm_count", d.sm_count},
              {"l2_bytes", d.l2_bytes},
              {"memory_bytes", d.memory_bytes},
              {"clock_khz", d.clock_khz},
              {"driver_version", d.driver_version},
              {"runtime_version", d.runtime_version},
              {"uuid", d.uuid},
              {"dram_bytes_per_s", d.ceilings.dram_bytes_per_s},
              {"fp32_flops_per_s", d.ceilings.fp32_flops_per_s},
              {"tensor_flops_per_s", d.ceilings.tensor_flops_per_s},
              {"isolation", d.isolation}};
}

DeviceInfo device_info_from_json(json const& j) {
  DeviceInfo d;
  d.index = j.value("index", 0);
  d.name = j.value("name", std::string());
  d.cc_major = j.value("cc_major", 0);
  d.cc_minor = j.value("cc_minor", 0);
  d.sm_count = j.value("sm_count", 0);
  d.l2_bytes = j.value("l2_bytes", std::int64_t{0});
  d.memory_bytes = j.value("memory_bytes", std::int64_t{0});
  d.clock_khz = j.value("clock_khz", 0);
  d.driver_version = j.value("driver_version", 0);
  d.runtime_version = j.value("runtime_version", 0);
  d.uuid = j.value("uuid", std::string());
  d.ceilings.dram_bytes_per_s = j.value("dram_bytes_per_s", 0.0);
  d.ceilings.fp32_flops_per_s = j.value("fp32_flops_per_s", 0.0);
  d.ceilings.tensor_flops_per_s = j.value("tensor_flops_per_s", 0.0);
  d.isolation = j.value("isolation", std::string());
  return d;
}

}  // namespace kopt::worker
