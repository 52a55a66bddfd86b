// Half-split rotary embedding (rotate_half): one thread per output element; element d of a head pairs with
// element d + h (d < h) or d - h, both rotated by angle index d mod h of the token. Products in double,
// each output rounded once.
__global__ void rotary_neox_kernel(const float* q, const float* cos, const float* sin, float* q_embed,
                                   int seq_len, int num_heads, int head_dim) {
  long long const e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= static_cast<long long>(seq_len) * num_heads * head_dim) return;
  int const h = head_dim / 2;
  int const d = static_cast<int>(e % head_dim);
  long long const t = e / (static_cast<long long>(num_heads) * head_dim);
  long long const head = e - d;
  int const i = d < h ? d : d - h;
  double const c = cos[t * h + i];
  double const s = sin[t * h + i];
  double const first = q[head + i];
  double const second = q[head + i + h];
  q_embed[e] = static_cast<float>(d < h ? first * c - second * s : second * c + first * s);
}

extern "C" void apply_rotary_neox(const float* q, const float* cos, const float* sin, float* q_embed,
                                  int seq_len, int num_heads, int head_dim) {
  long long const total = static_cast<long long>(seq_len) * num_heads * head_dim;
  if (total <= 0 || head_dim % 2 != 0) return;
  rotary_neox_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(q, cos, sin, q_embed, seq_len,
                                                                          num_heads, head_dim);
}
