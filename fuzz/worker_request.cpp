// The worker protocol, kopt -> kopt-worker (include/kopt/worker/request_messages.hpp): one request line
// as the worker reads it (json::parse without exceptions), then every parse_*_request on the object and
// folders_read_by (the folders the sandbox lets it read). Seeds: the request lines of
// docs/worker-protocol.md.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "kopt/worker/confinement_paths.hpp"
#include "kopt/worker/request_messages.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  namespace w = kopt::worker;
  auto const request =
      nlohmann::json::parse(std::string_view(reinterpret_cast<char const*>(data), size), nullptr, false);
  if (request.is_discarded()) return 0;
  (void)w::parse_hello_request(request);
  (void)w::parse_evaluate_request(request);
  (void)w::parse_check_task_request(request);
  (void)w::parse_single_trial_request(request);
  (void)w::parse_calibrate_request(request);
  (void)w::parse_energy_request(request);
  (void)w::parse_shutdown_request(request);
  (void)w::folders_read_by(request);
  return 0;
}
