// How CUDA errors raised while a candidate ran map to candidate statuses.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "kopt/candidate_status.hpp"

namespace kopt::worker {

struct CudaFailure {
  CandidateStatus status = CandidateStatus::runtime_error;
  bool sticky = false;  // the context is unusable: the worker must exit after replying
  std::string message;  // "cudaErrorIllegalAddress: an illegal memory access was encountered"
};

// Launch-time errors (bad geometry, too many resources) are launch_error and leave the context
// usable; errors during execution are runtime_error; the ones that corrupt the context are sticky.
CudaFailure classify_cuda_error(cudaError_t error, bool during_launch);
std::string cuda_error_text(cudaError_t error);

}  // namespace kopt::worker
