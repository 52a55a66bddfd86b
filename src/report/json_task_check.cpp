// JSON for `kopt task check` reports (schema kopt.task_check/1).
#include <fmt/format.h>

#include "kopt/eval_json.hpp"
#include "kopt/json_cursor.hpp"
#include "kopt/report.hpp"

namespace kopt {
namespace {

using json_doc::encode;
using json_doc::JsonCursor;
using json_doc::optional_number_to_json;

nlohmann::json encode(TaskCheckSize const& size) {
  nlohmann::json buffers = nlohmann::json::array();
  for (auto const& [name, elements] : size.buffer_elements) {
    buffers.push_back({{"name", name}, {"elements", elements}});
  }
  return {
      {"size", size.size},
      {"buffer_elements", std::move(buffers)},
      {"bytes", optional_number_to_json(size.bytes)},
      {"flops", optional_number_to_json(size.flops)},
      {"reference", encode(size.reference)},
      {"baseline", encode(size.baseline)},
      {"deterministic", size.deterministic},
      {"reference_constant", size.reference_constant},
      {"note", size.note},
  };
}

TaskCheckSize decode_check_size(JsonCursor const& cursor) {
  TaskCheckSize size;
  size.size = cursor.field("size").as_string();
  JsonCursor buffers = cursor.field("buffer_elements");
  for (std::size_t i = 0, n = buffers.array_size(); i < n; ++i) {
    JsonCursor buffer = buffers.element(i);
    size.buffer_elements.emplace_back(buffer.field("name").as_string(),
                                      static_cast<std::size_t>(buffer.field("elements").as_uint64()));
  }
  size.bytes = cursor.field("bytes").as_optional_number();
  size.flops = cursor.field("flops").as_optional_number();
  size.reference = json_doc::decode_optional_timing(cursor.field("reference"));
  size.baseline = json_doc::decode_optional_timing(cursor.field("baseline"));
  size.deterministic = cursor.field("deterministic").as_bool();
  size.reference_constant = cursor.field("reference_constant").as_bool();
  size.note = cursor.field("note").as_string();
  return size;
}

}  // namespace

nlohmann::json to_json(TaskCheckReport const& report) {
  nlohmann::json sizes = nlohmann::json::array();
  for (auto const& size : report.sizes) sizes.push_back(encode(size));
  return {
      {"schema", kTaskCheckSchema}, {"task", report.task},       {"device", encode(report.device)},
      {"seed", report.seed},        {"sizes", std::move(sizes)}, {"warnings", report.warnings},
  };
}

Result<TaskCheckReport> task_check_report_from_json(nlohmann::json const& json) {
  std::string error;
  JsonCursor document(json, "", &error);
  json_doc::expect_schema(document, kTaskCheckSchema);
  TaskCheckReport report;
  report.task = document.field("task").as_string();
  report.device = json_doc::decode_device(document.field("device"));
  report.seed = document.field("seed").as_uint64();
  JsonCursor sizes = document.field("sizes");
  for (std::size_t i = 0, n = sizes.array_size(); i < n; ++i)
    report.sizes.push_back(decode_check_size(sizes.element(i)));
  JsonCursor warnings = document.field("warnings");
  for (std::size_t i = 0, n = warnings.array_size(); i < n; ++i) {
    report.warnings.push_back(warnings.element(i).as_string());
  }
  if (!error.empty()) {
    return make_error(ErrorCode::invalid_spec, fmt::format("{} report: {}", kTaskCheckSchema, error));
  }
  return report;
}

}  // namespace kopt
