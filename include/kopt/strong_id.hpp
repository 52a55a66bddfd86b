// Strong identifier types: a CandidateId cannot be passed where a SizeCaseIndex is expected.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <utility>

namespace kopt {

template <class Tag, class Rep = std::int64_t>
class StrongId {
 public:
  using rep_type = Rep;
  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep value) : value_(std::move(value)) {}
  constexpr Rep value() const noexcept { return value_; }
  friend constexpr auto operator<=>(StrongId, StrongId) = default;

 private:
  Rep value_{};
};

using CandidateId = StrongId<struct CandidateIdTag>;
using SizeCaseIndex = StrongId<struct SizeCaseIndexTag, std::int32_t>;

}  // namespace kopt

template <class Tag, class Rep>
struct std::hash<kopt::StrongId<Tag, Rep>> {
  std::size_t operator()(kopt::StrongId<Tag, Rep> id) const noexcept { return std::hash<Rep>{}(id.value()); }
};
