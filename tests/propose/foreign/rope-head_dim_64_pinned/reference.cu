// Half-split rotary embedding with a head size of 64: one thread per output element; element d of a head
// pairs with element d + 32 (d < 32) or d - 32, both rotated by angle index d mod 32 of the token. Products
// in double, each output rounded once.
constexpr int kHeadDim = 64;
constexpr int kHalf = kHeadDim / 2;

__global__ void rope_hd64_kernel(float* out, const float* input, const float* cos, const float* sin,
                                 int num_tokens, int num_heads) {
  long long const e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= static_cast<long long>(num_tokens) * num_heads * kHeadDim) return;
  int const d = static_cast<int>(e % kHeadDim);
  long long const t = e / (static_cast<long long>(num_heads) * kHeadDim);
  long long const head = e - d;
  int const i = d < kHalf ? d : d - kHalf;
  double const c = cos[t * kHalf + i];
  double const s = sin[t * kHalf + i];
  double const first = input[head + i];
  double const second = input[head + i + kHalf];
  out[e] = static_cast<float>(d < kHalf ? first * c - second * s : second * c + first * s);
}

extern "C" void rope_hd64(float* out, const float* input, const float* cos, const float* sin, int num_tokens,
                          int num_heads) {
  long long const total = static_cast<long long>(num_tokens) * num_heads * kHeadDim;
  if (total <= 0) return;
  rope_hd64_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(out, input, cos, sin, num_tokens,
                                                                        num_heads);
}
