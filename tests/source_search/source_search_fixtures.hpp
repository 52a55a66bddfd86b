// Shared by the source-search tests: a scripted LLM backend (queued replies or errors, then an optional
// function of the request), planner and coder replies, a marked root kernel, and the store around a run.
// Kernels are answered by the generate tests' MarkerEvaluator from their "// fake: <status> [speedup]" line.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "generate/generate_fixtures.hpp"
#include "kopt/source_search.hpp"
#include "kopt/store.hpp"
#include "support/temp_dir.hpp"

namespace kopt::test {

// Replies in order (a text, or an Error as a failed call returns it), then `fallback` (unset: an error).
class ScriptedBackend final : public LlmBackend {
 public:
  using Item = std::variant<std::string, Error>;
  Result<LlmReply> complete(LlmRequest const& request) override {
    requests.push_back(request);
    std::optional<Item> item;
    if (!queue.empty()) {
      item = std::move(queue.front());
      queue.pop_front();
    } else if (fallback) {
      item = fallback(request);
    }
    if (!item) return make_error(ErrorCode::io_error, "scripted backend: no reply left");
    if (auto const* error = std::get_if<Error>(&*item)) return *error;
    LlmReply reply;
    reply.text = std::get<std::string>(*item);
    reply.finish_reason = "stop";
    reply.backend = "scripted";
    reply.model = "script-model";
    reply.usage.input_tokens = 100;
    reply.usage.output_tokens = 50;
    reply.cost_usd = cost_per_call;
    return reply;
  }
  std::string identity() const override { return "scripted"; }

  std::deque<Item> queue;
  std::function<std::optional<Item>(LlmRequest const&)> fallback;
  std::vector<LlmRequest> requests;
  std::optional<double> cost_per_call = 0.01;
};

inline bool is_planner(LlmRequest const& request) {
  return request.system.find("planning the next step") != std::string::npos;
}
inline std::string user_text(LlmRequest const& request) {
  return request.messages.empty() ? std::string() : request.messages.back().text;
}

// A root kernel (launcher form) the MarkerEvaluator answers "ok 1.0"; its "// step" line appears twice.
inline std::string root_kernel() {
  return "// fake: ok 1.0\n"
         "extern \"C\" void softmax(float* out, const float* in, int N, int C) {\n"
         "  // step\n"
         "  // step\n"
         "}\n";
}

inline std::string planner_reply(std::string const& plan, std::string const& choice = "own_change") {
  return "The kernel is memory bound.\n\nPLAN: " + plan + "\nCHOICE: " + choice + "\n";
}

inline std::string edit_reply(std::string const& search, std::string const& replace) {
  return "Applying the plan.\n\n<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n";
}

// An edit of the marker line: "// fake: ok 1.0" -> "// fake: <verdict>".
inline std::string marker_edit(std::string const& from, std::string const& verdict) {
  return edit_reply("// fake: " + from + "\n", "// fake: " + verdict + "\n");
}

inline SourceSearchOptions search_options() {
  SourceSearchOptions options;
  options.prompt.prompts_dir = kSourceDir / "prompts";
  options.backend_kind = "scripted";
  options.model = "script-model";
  options.node_budget = 1;
  options.repairs = 2;
  options.search_memory = false;
  return options;
}

struct SourceSearchTest : ::testing::Test {
  void SetUp() override {
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
    evaluator.unmarked = CandidateStatus::ok;
  }
  Result<SourceSearchResult> search(SourceSearchOptions const& options, LlmBackend* llm = nullptr,
                                    std::string const& source = root_kernel(),
                                    StrategyLibrary const* strategies = nullptr) {
    return source_search(task, source, strategies, llm != nullptr ? *llm : backend, evaluator, *store,
                         options);
  }
  std::vector<StoredCandidate> candidates(RunId run) {
    auto history = store->load_run(run);
    EXPECT_TRUE(history) << history.error().message;
    return history ? history->candidates : std::vector<StoredCandidate>{};
  }
  std::vector<StoredLlmCall> calls(RunId run) {
    auto rows = store->llm_calls_for_run(run);
    EXPECT_TRUE(rows) << rows.error().message;
    return rows ? *rows : std::vector<StoredLlmCall>{};
  }

  TempDir dir;
  std::optional<Store> store;
  TaskSpec task = softmax_task();
  MarkerEvaluator evaluator;
  ScriptedBackend backend;
};

}  // namespace kopt::test
