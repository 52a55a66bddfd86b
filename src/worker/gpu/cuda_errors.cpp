#include "worker/gpu/cuda_errors.hpp"

namespace kopt::worker {

std::string cuda_error_text(cudaError_t error) {
  return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

CudaFailure classify_cuda_error(cudaError_t error, bool during_launch) {
  CudaFailure failure;
  failure.message = cuda_error_text(error);
  switch (error) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
      failure.status = CandidateStatus::runtime_error;
      failure.sticky = true;
      break;
    case cudaErrorInvalidConfiguration:
    case cudaErrorLaunchOutOfResources:
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorSharedObjectInitFailed:
    case cudaErrorInvalidKernelImage: failure.status = CandidateStatus::launch_error; break;
    default:
      failure.status = during_launch ? CandidateStatus::launch_error : CandidateStatus::runtime_error;
      break;
  }
  return failure;
}

}  // namespace kopt::worker
