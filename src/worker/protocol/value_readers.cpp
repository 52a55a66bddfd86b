#include "worker/protocol/value_readers.hpp"

namespace kopt::worker {

using nlohmann::json;

SampleStats read_stats(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  SampleStats s;
  s.count = static_cast<int>(in.count("count"));
  s.median = in.number("median");
  s.min = in.number("min");
  s.max = in.number("max");
  s.mean = in.number("mean");
  s.q1 = in.number("q1");
  s.q3 = in.number("q3");
  in.finish();
  return s;
}

TimingFields read_timing(json const& j, std::string const& where, std::string& error, GraphField graph) {
  FieldReader in(j, where, error);
  TimingFields t;
  if (json const* us = in.field("us")) t.us = read_stats(*us, in.path("us"), error);
  json const* graph_us = graph == GraphField::present ? in.field("graph_us") : in.optional_field("graph_us");
  if (graph_us != nullptr && !graph_us->is_null())
    t.graph_us = read_stats(*graph_us, in.path("graph_us"), error);
  t.device_wide = in.boolean("device_wide");
  t.warmup_ms = in.number("warmup_ms");
  in.finish();
  return t;
}

ArtifactRef read_artifact(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  ArtifactRef ref;
  ref.mode = in.text("mode");
  ref.path = in.text("path");
  ref.symbol = in.text("symbol");
  if (ref.mode == "kernel") {
    ref.grid = in.texts("grid");
    ref.block = in.texts("block");
    ref.shared_bytes = in.text("shared_bytes");
    for (std::uint64_t size : in.counts("param_sizes")) ref.param_sizes.push_back(static_cast<int>(size));
    if (json const* arguments = in.array("arguments")) {
      for (std::size_t i = 0; i < arguments->size(); ++i) {
        FieldReader arg(arguments->at(i), in.path("arguments") + "[" + std::to_string(i) + "]", error);
        KernelArgumentRef a;
        a.parameter = static_cast<int>(arg.integer("parameter"));
        a.type = arg.text("type");
        a.value = arg.text("value");
        arg.finish();
        ref.arguments.push_back(std::move(a));
      }
    }
  } else if (!in.failed() && ref.mode != "launcher") {
    in.fail(in.path("mode"), "expected \"kernel\" or \"launcher\", got \"" + ref.mode + "\"");
  }
  in.finish();
  return ref;
}

DeviceInfo read_device_info(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  DeviceInfo d;
  d.index = static_cast<int>(in.integer("index"));
  d.name = in.text("name");
  d.cc_major = static_cast<int>(in.integer("cc_major"));
  d.cc_minor = static_cast<int>(in.integer("cc_minor"));
  d.sm_count = static_cast<int>(in.integer("sm_count"));
  d.l2_bytes = in.integer("l2_bytes");
  d.memory_bytes = in.integer("memory_bytes");
  d.clock_khz = static_cast<int>(in.integer("clock_khz"));
  d.driver_version = static_cast<int>(in.integer("driver_version"));
  d.runtime_version = static_cast<int>(in.integer("runtime_version"));
  d.uuid = in.text("uuid");
  d.ceilings.dram_bytes_per_s = in.number("dram_bytes_per_s");
  d.ceilings.fp32_flops_per_s = in.number("fp32_flops_per_s");
  d.ceilings.tensor_flops_per_s = in.number("tensor_flops_per_s");
  d.isolation = in.text("isolation");
  d.visible_devices = static_cast<int>(in.integer("visible_devices"));
  in.finish();
  return d;
}

}  // namespace kopt::worker
