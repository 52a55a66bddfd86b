// Exhaustive strategy: every valid point once, in mixed-radix order.
#include "kopt/search.hpp"

namespace kopt {
namespace {

class ExhaustiveStrategy final : public Strategy {
 public:
  std::string_view name() const override { return "exhaustive"; }
  void start(SearchSpace const& space, std::uint64_t /*seed*/) override {
    space_ = &space;
    dims_ = space.dimensions();
    count_ = point_count(dims_);
    next_ = 0;
  }
  std::optional<Proposal> propose(SearchHistory const& history) override {
    while (space_ != nullptr && next_ < count_) {
      Point point = point_at(dims_, next_++);
      if (space_->is_valid(point) && !history.contains(point)) return Proposal{std::move(point), {}, {}};
    }
    return std::nullopt;
  }
  void observe(Proposal const& /*proposal*/, Evaluation const& /*evaluation*/, bool /*fresh*/) override {}

 private:
  SearchSpace const* space_ = nullptr;
  std::vector<Dimension> dims_;
  std::uint64_t count_ = 0;
  std::uint64_t next_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_exhaustive_strategy() {
  return std::make_unique<ExhaustiveStrategy>();
}

}  // namespace kopt
