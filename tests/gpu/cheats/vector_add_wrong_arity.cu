// expect: load_error
// defeats: nothing; checks that a kernel whose parameters differ from the task's signature is never launched
// mode: kernel
// task: examples/vector_add

// Drops the second input: three parameters where the signature has four. It compiles; kopt compares
// the loaded kernel's parameter list with the signature and refuses to launch it.
extern "C" __global__ void vector_add(float* c, const float* a, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + a[i];
}
