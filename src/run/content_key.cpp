// content_key: what makes two evaluations of a candidate the same (the store's dedupe cache keys on it).
#include <string>

#include "kopt/run_log.hpp"
#include "kopt/sha256.hpp"

namespace kopt {

CandidateKey content_key(CandidateInput const& candidate, EvaluationTarget const& target) {
  std::string text = to_string(candidate.mode).data();
  text += '\0';
  text += candidate.source;
  for (std::string const& flag : candidate.flags) {
    text += '\0';
    text += flag;
  }
  text += '\0';
  text += target.arch;
  text += '\0';
  text += target.toolkit;
  return CandidateKey(sha256_hex(text).substr(0, 32));  // 128 bits, as the compile cache
}

}  // namespace kopt
