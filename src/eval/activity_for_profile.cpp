// activity_for_profile: CUPTI's launches and busy time with the timing protocol's call time.
#include "kopt/eval.hpp"

namespace kopt {

std::optional<KernelActivity> activity_for_profile(SizeResult const& size) {
  if (!size.activity) return std::nullopt;
  KernelActivity activity = *size.activity;
  if (activity.from_cupti && size.candidate && size.candidate->us.median > 0.0)
    activity.call_us = size.candidate->us.median;
  return activity;
}

}  // namespace kopt
