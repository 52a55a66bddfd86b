#include "kopt/llm.hpp"

namespace kopt {

std::string redact_secret(std::string text, std::string_view secret) {
  if (secret.size() < 4) return text;  // too short to tell from ordinary text; never set in practice
  constexpr std::string_view kMark = "[redacted]";
  for (auto pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos + kMark.size())) {
    text.replace(pos, secret.size(), kMark);
  }
  return text;
}

}  // namespace kopt
