#include "kopt/profile.hpp"

namespace kopt {

std::optional<double> NcuKernelRow::metric(std::string_view name) const {
  auto const found = metrics.find(name);
  if (found == metrics.end()) return std::nullopt;
  return found->second;
}

std::optional<std::string_view> NcuKernelRow::text(std::string_view name) const {
  auto const found = text_fields.find(name);
  if (found == text_fields.end()) return std::nullopt;
  return std::string_view(found->second);
}

}  // namespace kopt
