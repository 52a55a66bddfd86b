// The calibration cache and Evaluator::calibrate.
#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "eval/evaluator_impl.hpp"
#include "kopt/eval.hpp"
#include "kopt/text.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"

namespace kopt {
namespace {

using nlohmann::json;

}  // namespace

std::filesystem::path calibration_path(std::filesystem::path const& cache_dir, DeviceInfo const& device) {
  std::string const id = device.uuid.empty() ? fmt::format("device{}", device.index) : device.uuid;
  return cache_dir / "calibration" / fmt::format("{}-driver{}.json", id, device.driver_version);
}

std::string calibration_document(DeviceCalibration const& c) {
  json const doc{{"schema", "kopt.calibration/1"},
                 {"device_name", c.device_name},
                 {"uuid", c.uuid},
                 {"driver_version", c.driver_version},
                 {"dram_bytes_per_s", c.dram_bytes_per_s},
                 {"fp32_flops_per_s", c.fp32_flops_per_s},
                 {"bf16_tensor_flops_per_s", c.bf16_tensor_flops_per_s},
                 {"fp16_tensor_flops_per_s", c.fp16_tensor_flops_per_s},
                 {"measured_at", c.measured_at},
                 {"notes", c.notes}};
  return doc.dump(2);
}

Status save_calibration(std::filesystem::path const& path, DeviceCalibration const& c) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << calibration_document(c) << '\n';
  out.close();
  if (!out)
    return make_error(ErrorCode::io_error, fmt::format("cannot write the calibration '{}'", path.string()));
  return Ok{};
}

Result<DeviceCalibration> load_calibration(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::not_found, fmt::format("no calibration at '{}'", path.string()));
  std::stringstream text;
  text << in.rdbuf();
  json const doc = json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return make_error(ErrorCode::invalid_spec,
                      fmt::format("{}: not a JSON object; expected a kopt.calibration/1 document "
                                  "(delete it and run `kopt calibrate` again)",
                                  path.string()));
  }
  DeviceCalibration c;
  auto number = [&](char const* field, double& out) -> Status {
    auto it = doc.find(field);
    if (it == doc.end() || !it->is_number() || it->get<double>() < 0) {
      return make_error(ErrorCode::invalid_spec,
                        fmt::format("{}: field '{}' must be a non-negative number", path.string(), field));
    }
    out = it->get<double>();
    return Ok{};
  };
  if (doc.value("schema", std::string()) != "kopt.calibration/1") {
    return make_error(ErrorCode::invalid_spec,
                      fmt::format("{}: field 'schema' must be \"kopt.calibration/1\"", path.string()));
  }
  for (auto [field, out] : {std::pair{"dram_bytes_per_s", &c.dram_bytes_per_s},
                            std::pair{"fp32_flops_per_s", &c.fp32_flops_per_s},
                            std::pair{"bf16_tensor_flops_per_s", &c.bf16_tensor_flops_per_s},
                            std::pair{"fp16_tensor_flops_per_s", &c.fp16_tensor_flops_per_s}}) {
    if (auto status = number(field, *out); !status) return status.error();
  }
  double driver = 0.0;
  if (auto status = number("driver_version", driver); !status) return status.error();
  c.driver_version = static_cast<int>(driver);
  c.device_name = doc.value("device_name", std::string());
  c.uuid = doc.value("uuid", std::string());
  c.measured_at = doc.value("measured_at", std::string());
  if (auto it = doc.find("notes"); it != doc.end() && it->is_array()) {
    for (auto const& note : *it) {
      if (note.is_string()) c.notes.push_back(note.get<std::string>());
    }
  }
  return c;
}

DeviceInfo apply_calibration(DeviceInfo device, DeviceCalibration const& c) {
  if (c.uuid != device.uuid || c.driver_version != device.driver_version) return device;
  if (c.fp32_flops_per_s > 0) device.ceilings.fp32_flops_per_s = c.fp32_flops_per_s;
  double const tensor = std::max(c.bf16_tensor_flops_per_s, c.fp16_tensor_flops_per_s);
  if (tensor > 0) device.ceilings.tensor_flops_per_s = tensor;
  if (device.ceilings.dram_bytes_per_s <= 0 && c.dram_bytes_per_s > 0)
    device.ceilings.dram_bytes_per_s = c.dram_bytes_per_s;
  return device;
}

std::filesystem::path Evaluator::calibration_file() const {
  return calibration_path(impl_->compiler->options().cache_dir, impl_->worker->device());
}

Result<DeviceCalibration> Evaluator::calibrate() {
  auto reply =
      impl_->worker->request(worker::to_json(worker::CalibrateRequest{}), std::chrono::milliseconds(600000));
  if (!reply) return reply.error();
  if (reply->worker_died) {
    return make_error(ErrorCode::worker_error, "the worker died while calibrating: " + reply->stderr_tail);
  }
  json const& body = reply->body;
  if (body.contains("error")) {
    return make_error(ErrorCode::worker_error, "calibrate: " + worker::error_of_reply(body).message);
  }
  auto measured = worker::parse_calibrate_reply(body);
  if (!measured) return measured.error();
  DeviceInfo const& device = impl_->worker->device();
  DeviceCalibration c;
  c.device_name = device.name;
  c.uuid = device.uuid;
  c.driver_version = device.driver_version;
  c.dram_bytes_per_s = measured->dram_bytes_per_s;
  c.fp32_flops_per_s = measured->fp32_flops_per_s;
  c.bf16_tensor_flops_per_s = measured->bf16_tensor_flops_per_s;
  c.fp16_tensor_flops_per_s = measured->fp16_tensor_flops_per_s;
  c.measured_at = utc_now_iso8601();
  c.notes = measured->notes;
  if (auto status = save_calibration(calibration_file(), c); !status) return status.error();
  impl_->device = apply_calibration(device, c);
  return c;
}

}  // namespace kopt
