// An external command as the model: the prompt on stdin (JSON or plain text), the reply on stdout (its
// first 16 MiB), its stderr's end in the error when it fails; run by argv, without a shell, in a process
// group of its own that the overall timeout kills whole.
#include <chrono>

#include "kopt/child_process.hpp"
#include "llm/backends.hpp"
#include "llm/json_io.hpp"

namespace kopt::llm {
namespace {

// Plain text: the system prompt, then the messages, separated by blank lines; with more than one
// message each is introduced by its role ("user:", "assistant:") on a line of its own.
std::string as_text(LlmRequest const& request) {
  std::string text = request.system;
  for (auto const& message : request.messages) {
    if (!text.empty()) text += "\n\n";
    if (request.messages.size() > 1) text += message.role + ":\n";
    text += message.text;
  }
  return text + "\n";
}

class CommandBackend final : public LlmBackend {
 public:
  explicit CommandBackend(CommandSettings settings) : settings_(std::move(settings)) {}

  std::string identity() const override {
    std::string out = "command";
    for (auto const& arg : settings_.argv) out += " " + arg;
    return out + (settings_.input == CommandInput::json ? " (json)" : " (text)");
  }

  Result<LlmReply> complete(LlmRequest const& request) override {
    std::string const model = request.model.empty() ? settings_.model : request.model;
    std::string input;
    if (settings_.input == CommandInput::json) {
      auto json = request_to_json(request);
      json["model"] = model;
      input = json.dump() + "\n";
    } else {
      input = as_text(request);
    }
    auto const started = std::chrono::steady_clock::now();
    ProcessSpec spec;
    spec.argv = settings_.argv;
    spec.stderr_target = StderrTarget::pipe;
    spec.own_process_group = true;
    CommunicateOptions options;
    options.input = std::move(input);
    options.timeout = settings_.timeout;
    auto outcome = run_process(spec, options);
    std::string const who = "LLM command " + settings_.argv[0];
    if (!outcome) return make_error(ErrorCode::io_error, who + ": " + outcome.error().message);
    if (auto status = outcome->status(who); !status) return status.error();
    LlmReply reply;
    reply.text = std::move(outcome->output);
    reply.finish_reason = "exit 0";
    reply.backend = "command";
    reply.model = model;
    reply.attempts = 1;
    reply.latency_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    reply.cost_usd = settings_.prices.cost(model, reply.usage);  // no usage: unknown
    return reply;
  }

 private:
  CommandSettings settings_;
};

}  // namespace

std::unique_ptr<LlmBackend> make_command_backend(CommandSettings settings) {
  return std::make_unique<CommandBackend>(std::move(settings));
}

}  // namespace kopt::llm
