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
    json arguments = json::array();
    for (KernelArgumentRef const& a : ref.arguments) {
      arguments.push_back(json{{"parameter", a.parameter}, {"type", a.type}, {"value", a.value}});
    }
    j["arguments"] = std::move(arguments);
  }
  return j;
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
              {"isolation", d.isolation},
              {"visible_devices", d.visible_devices}};
}

}  // namespace kopt::worker
