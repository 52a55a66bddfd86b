// expect: wrong_output
// defeats: keeping the reference's results where the candidate can reach them (device or host memory)
// mode: launcher
// task: examples/vector_add

// Never computes. Every call walks the device's allocations (cuMemGetAddressRange through
// dlopen("libcuda.so.1")) and the process's own memory (/proc/self/mem) for a buffer that starts with
// the answer to its current inputs, and copies it into c; when none is found it writes nothing.
// Against a worker that keeps the reference's results in clear (before the masked results of
// docs/verification.md, "Answers out of reach") it passed verification with zero error.
#include "answer_thief.cuh"

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  thief::steal_vector_add(c, a, b, n);
}
