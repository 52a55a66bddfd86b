// Recorded replies, read back in order or by request hash: deterministic end-to-end tests.
// A line is {"request_sha256": "...", "reply": {...}} (as with_recording writes it) or a bare reply
// {"text": "...", ...}; request_sha256 is required for ReplayOrder::by_request_hash.
#include <fstream>
#include <map>
#include <mutex>

#include "llm/backends.hpp"
#include "llm/json_io.hpp"

namespace kopt::llm {
namespace {

class ReplayBackend final : public LlmBackend {
 public:
  ReplayBackend(std::filesystem::path file, ReplayOrder order, std::vector<LlmReply> replies,
                std::map<std::string, std::size_t> by_hash)
      : file_(std::move(file)), order_(order), replies_(std::move(replies)), by_hash_(std::move(by_hash)) {}

  std::string identity() const override { return "replay " + file_.string(); }

  Result<LlmReply> complete(LlmRequest const& request) override {
    std::lock_guard lock(mutex_);
    LlmReply reply;
    if (order_ == ReplayOrder::in_order) {
      if (next_ >= replies_.size()) {
        return make_error(ErrorCode::not_found, "replay file " + file_.string() + " has " +
                                                    std::to_string(replies_.size()) + " replies; call " +
                                                    std::to_string(next_ + 1) + " asked for one more");
      }
      reply = replies_[next_++];
    } else {
      auto const hash = llm_request_hash(request);
      auto it = by_hash_.find(hash);
      if (it == by_hash_.end()) {
        return make_error(ErrorCode::not_found, "replay file " + file_.string() +
                                                    " has no reply for the request with sha256 " + hash);
      }
      reply = replies_[it->second];
    }
    reply.backend = "replay";
    reply.from_cache = false;
    reply.attempts = 0;
    reply.latency_ms = 0;
    reply.cost_usd = 0.0;  // nothing was paid for this call
    if (reply.model.empty()) reply.model = request.model;
    return reply;
  }

 private:
  std::filesystem::path file_;
  ReplayOrder order_;
  std::vector<LlmReply> replies_;
  std::map<std::string, std::size_t> by_hash_;
  std::mutex mutex_;
  std::size_t next_ = 0;
};

}  // namespace

Result<std::unique_ptr<LlmBackend>> make_replay_backend(std::filesystem::path const& file,
                                                        ReplayOrder order) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return make_error(ErrorCode::not_found, "cannot read the replay file " + file.string());
  std::vector<LlmReply> replies;
  std::map<std::string, std::size_t> by_hash;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string const where = file.string() + ":" + std::to_string(number);
    auto json = nlohmann::json::parse(line, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
      return make_error(ErrorCode::invalid_spec, where + ": expected one JSON object per line");
    }
    auto inner = json.find("reply");
    auto reply = reply_from_json(inner != json.end() ? *inner : json, where);
    if (!reply) return reply.error();
    if (auto hash = json.find("request_sha256"); hash != json.end()) {
      if (!hash->is_string())
        return make_error(ErrorCode::invalid_spec, where + ": field request_sha256: expected a string");
      by_hash.emplace(hash->get<std::string>(), replies.size());
    } else if (order == ReplayOrder::by_request_hash) {
      return make_error(
          ErrorCode::invalid_spec,
          where + ": field request_sha256: expected the request's hash (replay by request hash)");
    }
    replies.push_back(std::move(reply).value());
  }
  if (replies.empty())
    return make_error(ErrorCode::invalid_spec, file.string() + ": no replies (an empty replay file)");
  return std::unique_ptr<LlmBackend>(
      std::make_unique<ReplayBackend>(file, order, std::move(replies), std::move(by_hash)));
}

}  // namespace kopt::llm
