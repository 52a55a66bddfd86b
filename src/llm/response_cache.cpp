// The response cache: one JSON file per request under <dir>/<first two hex digits>/<sha256>.json,
// keyed by the backend's identity and the whole request. Written atomically (temporary file + rename).
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <system_error>

#include "kopt/llm.hpp"
#include "kopt/sha256.hpp"
#include "llm/json_io.hpp"

namespace kopt {
namespace {

class CachedBackend final : public LlmBackend {
 public:
  CachedBackend(std::unique_ptr<LlmBackend> inner, std::filesystem::path dir)
      : inner_(std::move(inner)), dir_(std::move(dir)) {}

  std::string identity() const override { return inner_->identity(); }

  Result<LlmReply> complete(LlmRequest const& request) override {
    nlohmann::json const key_json = {{"backend", inner_->identity()},
                                     {"request", llm::request_to_json(request)}};
    std::string const key = sha256_hex(key_json.dump());
    auto const path = dir_ / key.substr(0, 2) / (key + ".json");
    if (auto hit = lookup(path, key_json)) return *hit;
    auto reply = inner_->complete(request);
    if (reply) store(path, key_json, *reply);  // a failed write only costs a later cache miss
    return reply;
  }

 private:
  static std::optional<LlmReply> lookup(std::filesystem::path const& path, nlohmann::json const& key_json) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    auto entry = nlohmann::json::parse(in, nullptr, false);
    // A damaged entry, or (never seen) a hash collision: a miss, overwritten by the fresh reply.
    if (entry.is_discarded() || !entry.is_object() || entry.value("key", nlohmann::json()) != key_json) {
      return std::nullopt;
    }
    auto reply = llm::reply_from_json(entry.value("reply", nlohmann::json()), path.string());
    if (!reply) return std::nullopt;
    reply->from_cache = true;
    reply->cost_usd = 0.0;
    reply->attempts = 0;
    reply->latency_ms = 0;
    return std::move(reply).value();
  }

  static void store(std::filesystem::path const& path, nlohmann::json const& key_json,
                    LlmReply const& reply) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return;
    auto const temporary = path.string() + ".tmp" + std::to_string(::getpid());
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out << nlohmann::json{{"key", key_json}, {"reply", llm::reply_to_json(reply)}}.dump(1) << '\n';
      if (!out) return;
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) std::filesystem::remove(temporary, ec);
  }

  std::unique_ptr<LlmBackend> inner_;
  std::filesystem::path dir_;
};

}  // namespace

std::unique_ptr<LlmBackend> with_response_cache(std::unique_ptr<LlmBackend> inner,
                                                std::filesystem::path dir) {
  return std::make_unique<CachedBackend>(std::move(inner), std::move(dir));
}

std::string llm_request_hash(LlmRequest const& request) {
  return sha256_hex(llm::request_to_json(request).dump());
}

}  // namespace kopt
