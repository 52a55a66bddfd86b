// One thread walks x and keeps the k largest values seen so far in a sorted local list (at most 128): a
// value goes in when the list is not full or it beats the smallest kept.
constexpr int kMaxK = 128;

__global__ void topk_vector_kernel(float* out, const float* x, int n, int k) {
  float best[kMaxK];
  int count = 0;
  for (int c = 0; c < n; ++c) {
    float const v = x[c];
    if (count == k && !(v > best[k - 1])) continue;
    int i = count < k ? count++ : k - 1;
    while (i > 0 && v > best[i - 1]) {
      best[i] = best[i - 1];
      --i;
    }
    best[i] = v;
  }
  for (int j = 0; j < k; ++j) out[j] = best[j];
}

extern "C" void topk_vector(float* out, const float* x, int n, int k) {
  if (k <= 0 || k > kMaxK || k > n) return;
  topk_vector_kernel<<<1, 1>>>(out, x, n, k);
}
