// Random strategy: valid points uniformly at random, without replacement.
#include "kopt/search.hpp"
#include "search/point_sampler.hpp"

namespace kopt {
namespace {

class RandomStrategy final : public Strategy {
 public:
  std::string_view name() const override { return "random"; }
  void start(SearchSpace const& space, std::uint64_t seed) override {
    sampler_ = search_detail::PointSampler(space, seed);
  }
  std::optional<Proposal> propose(SearchHistory const& history) override {
    auto point = sampler_.next(history);
    if (!point) return std::nullopt;
    return Proposal{std::move(*point), {}, {}};
  }
  void observe(Proposal const& /*proposal*/, Evaluation const& /*evaluation*/, bool /*fresh*/) override {}

 private:
  search_detail::PointSampler sampler_;
};

}  // namespace

std::unique_ptr<Strategy> make_random_strategy() {
  return std::make_unique<RandomStrategy>();
}

}  // namespace kopt
