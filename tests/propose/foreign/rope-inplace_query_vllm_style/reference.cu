// In-place half-split rotary embedding: one thread per pair (i, i + h) of one head of one token, both old
// values read before either is written.
__global__ void rotary_inplace_kernel(float* query, const float* cos, const float* sin, int num_tokens,
                                      int num_heads, int head_size) {
  int const h = head_size / 2;
  long long const p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= static_cast<long long>(num_tokens) * num_heads * h) return;
  int const i = static_cast<int>(p % h);
  long long const head = p / h;  // token * num_heads + k
  long long const t = head / num_heads;
  float* q = query + head * head_size;
  float const c = cos[t * h + i];
  float const s = sin[t * h + i];
  float const q0 = q[i];
  float const q1 = q[i + h];
  q[i] = q0 * c - q1 * s;
  q[i + h] = q1 * c + q0 * s;
}

extern "C" void rotary_inplace(float* query, const float* cos, const float* sin, int num_tokens,
                               int num_heads, int head_size) {
  long long const pairs = static_cast<long long>(num_tokens) * num_heads * (head_size / 2);
  if (pairs <= 0) return;
  rotary_inplace_kernel<<<static_cast<unsigned>((pairs + 255) / 256), 256>>>(query, cos, sin, num_tokens,
                                                                             num_heads, head_size);
}
