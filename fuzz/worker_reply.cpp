// The worker protocol, kopt-worker -> kopt (include/kopt/worker/reply_messages.hpp, verdict_messages.hpp):
// one reply or event line as the client reads it (json::parse without exceptions), then every parse_*_reply,
// parse_progress_event and parse_evaluate_reply (the verdict) on the object. Seeds: the reply lines of
// docs/worker-protocol.md.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/verdict_messages.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  namespace w = kopt::worker;
  auto const reply =
      nlohmann::json::parse(std::string_view(reinterpret_cast<char const*>(data), size), nullptr, false);
  if (reply.is_discarded()) return 0;
  (void)w::parse_hello_reply(reply);
  (void)w::parse_error_reply(reply);
  (void)w::parse_fatal_reply(reply);
  (void)w::parse_progress_event(reply);
  (void)w::parse_check_task_reply(reply);
  (void)w::parse_single_trial_reply(reply);
  (void)w::parse_calibrate_reply(reply);
  (void)w::parse_energy_reply(reply);
  (void)w::parse_evaluate_reply(reply);
  (void)w::parse_timing(reply, "fuzz");
  return 0;
}
