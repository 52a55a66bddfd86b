// llm_call_record: what the store keeps of one LLM call (the llm_calls row), secrets redacted.
#include "kopt/generate.hpp"

namespace kopt {

LlmCallRecord llm_call_record(LlmRequest const& request, Result<LlmReply> const& reply,
                              CallLabels const& labels, double failed_latency_ms) {
  LlmCallRecord record;
  record.role = labels.role;
  record.purpose = labels.purpose;
  record.request_sha256 = llm_request_hash(request);
  record.model = request.model.empty() ? labels.model : request.model;
  record.backend = labels.backend;
  if (!reply) {
    record.status = "error";
    record.error = redact_secret(reply.error().message, labels.secret);
    record.latency_ms = failed_latency_ms;
    return record;
  }
  if (!reply->model.empty()) record.model = reply->model;
  if (!reply->backend.empty() && record.backend.empty()) record.backend = reply->backend;
  record.input_tokens = reply->usage.input_tokens;
  record.output_tokens = reply->usage.output_tokens;
  record.cached_input_tokens = reply->usage.cached_input_tokens;
  record.reasoning_tokens = reply->usage.reasoning_tokens;
  record.cost_usd = reply->cost_usd;
  record.latency_ms = reply->latency_ms;
  record.from_cache = reply->from_cache;
  record.rationale = redact_secret(reply_prose(reply->text), labels.secret);
  return record;
}

}  // namespace kopt
