// expect: wrong_output
// defeats: verifying only before timing (the kernel behaves for its first launches, then stops working)
// mode: kernel
// task: examples/vector_add

// A launch counter in device memory survives between launches of the loaded module; the last block
// of each launch to finish bumps it. The first 32 launches are correct, later ones write nothing.
// kopt verifies vector_add's 3 size cases with 2 runs x 3 trials each (18 launches) before timing,
// so the drift starts while timed and only the verification after timing can catch it.
__device__ unsigned int launches_done = 0;
__device__ unsigned int blocks_done = 0;

extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  unsigned int const launch = *static_cast<volatile unsigned int*>(&launches_done);
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (launch < 32 && i < n) c[i] = a[i] + b[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {  // this block finished last
      blocks_done = 0;
      atomicAdd(&launches_done, 1u);
    }
  }
}
