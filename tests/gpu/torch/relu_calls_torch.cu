// expect: sandbox_violation
// defeats: a harness that lets the candidate run PyTorch itself (here: it opens libtorch, as a dlopen would)
// mode: launcher
// task: suites/pytorch/level1/relu.py
// Adversarial (issue #21): before computing ReLU honestly it looks for PyTorch's own library where Python
// environments keep it and opens it, the first step of calling ATen from the launcher. The worker refuses
// every access beneath the reference's runtime folders (kopt learns them from the reference process), so
// this ends sandbox_violation even though its output is right.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <glob.h>
#include <unistd.h>

__global__ void relu_kernel(float const* x, float* out, long long n) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(x[i], 0.0f);
}

static void open_libtorch() {
  char const* patterns[] = {"/opt/*/.venv/lib/python3*/site-packages/torch/lib/libtorch_cpu.so",
                            "/opt/*/lib/python3*/site-packages/torch/lib/libtorch_cpu.so",
                            "/usr/local/lib/python3*/dist-packages/torch/lib/libtorch_cpu.so",
                            "/usr/lib/python3/dist-packages/torch/lib/libtorch_cpu.so"};
  for (char const* pattern : patterns) {
    glob_t found{};
    if (glob(pattern, 0, nullptr, &found) == 0) {
      for (size_t k = 0; k < found.gl_pathc; ++k) {
        int const fd = open(found.gl_pathv[k], O_RDONLY);
        if (fd >= 0) close(fd);
      }
    }
    globfree(&found);
  }
}

extern "C" void forward(const float* x, float* out, int batch_size, int dim) {
  open_libtorch();
  long long const n = static_cast<long long>(batch_size) * dim;
  relu_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, out, n);
}
