// In-place GPT-J rotary embedding: one thread per adjacent pair, both old values read before either is
// written.
__global__ void rotary_gptj_kernel(float* x, const float* cos, const float* sin, int seq_len, int n_heads,
                                   int head_dim) {
  int const pairs = head_dim / 2;
  long long const p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= static_cast<long long>(seq_len) * n_heads * pairs) return;
  int const i = static_cast<int>(p % pairs);
  long long const t = p / (static_cast<long long>(n_heads) * pairs);
  float const c = cos[t * pairs + i];
  float const s = sin[t * pairs + i];
  float const x0 = x[2 * p];
  float const x1 = x[2 * p + 1];
  x[2 * p] = x0 * c - x1 * s;
  x[2 * p + 1] = x1 * c + x0 * s;
}

extern "C" void rotary_gptj_(float* x, const float* cos, const float* sin, int seq_len, int n_heads,
                             int head_dim) {
  long long const pairs = static_cast<long long>(seq_len) * n_heads * (head_dim / 2);
  if (pairs <= 0) return;
  rotary_gptj_kernel<<<static_cast<unsigned>((pairs + 255) / 256), 256>>>(x, cos, sin, seq_len, n_heads,
                                                                          head_dim);
}
