// expect: wrong_output
// defeats: the reference's outputs left in device memory while the candidate is timed
// mode: launcher
// task: examples/vector_add

// Honest for its first 6 calls on a set of buffers (3 trials x 2 runs: the verification before
// timing), then it only steals: it looks for a copy of the answer in device and host memory
// (answer_thief.cuh), where the reference just timed on the same inputs would have left it, and
// writes nothing when there is none. Stealing makes it look as fast as a copy; kopt must poison the
// reference's outputs after each of its timed samples, and the verification after timing (fresh
// inputs, same buffers) then finds an output it never wrote.
#include <map>
#include <tuple>

#include "answer_thief.cuh"

namespace {

__global__ void vector_add_kernel(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

constexpr int kHonestCalls = 6;
std::map<std::tuple<float*, const float*, const float*, int>, int> calls_seen;

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  if (++calls_seen[{c, a, b, n}] <= kHonestCalls) {
    vector_add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);
    return;
  }
  thief::steal_vector_add(c, a, b, n);
}
