// Records successful replies as JSONL lines that the replay backend reads back.
#include <fstream>

#include "kopt/llm.hpp"
#include "llm/json_io.hpp"

namespace kopt {
namespace {

class RecordingBackend final : public LlmBackend {
 public:
  RecordingBackend(std::unique_ptr<LlmBackend> inner, std::filesystem::path file)
      : inner_(std::move(inner)), file_(std::move(file)) {}

  std::string identity() const override { return inner_->identity(); }

  Result<LlmReply> complete(LlmRequest const& request) override {
    auto reply = inner_->complete(request);
    if (!reply) return reply;
    nlohmann::json const line = {{"request_sha256", llm_request_hash(request)},
                                 {"request", llm::request_to_json(request)},
                                 {"reply", llm::reply_to_json(*reply)}};
    std::ofstream out(file_, std::ios::binary | std::ios::app);
    out << line.dump() << '\n';
    if (!out) {
      return make_error(ErrorCode::io_error,
                        "cannot append the LLM reply to the recording " + file_.string());
    }
    return reply;
  }

 private:
  std::unique_ptr<LlmBackend> inner_;
  std::filesystem::path file_;
};

}  // namespace

std::unique_ptr<LlmBackend> with_recording(std::unique_ptr<LlmBackend> inner, std::filesystem::path file) {
  return std::make_unique<RecordingBackend>(std::move(inner), std::move(file));
}

}  // namespace kopt
