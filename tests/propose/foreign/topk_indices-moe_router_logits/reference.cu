// One thread per token picks k experts one after another: each time the largest logit among the experts
// not chosen yet (the first such expert on ties).
__global__ void moe_topk_kernel(const float* logits, float* topk_weights, int* topk_ids, int num_tokens,
                                int num_experts, int k) {
  int const t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= num_tokens) return;
  const float* row = logits + static_cast<long long>(t) * num_experts;
  float* weights = topk_weights + static_cast<long long>(t) * k;
  int* ids = topk_ids + static_cast<long long>(t) * k;
  for (int j = 0; j < k; ++j) {
    int best = -1;
    for (int e = 0; e < num_experts; ++e) {
      bool chosen = false;
      for (int i = 0; i < j; ++i) chosen = chosen || ids[i] == e;
      if (chosen) continue;
      if (best < 0 || row[e] > row[best]) best = e;
    }
    ids[j] = best;
    weights[j] = row[best];
  }
}

extern "C" void moe_topk(const float* logits, float* topk_weights, int* topk_ids, int num_tokens,
                         int num_experts, int k) {
  if (num_tokens <= 0) return;
  moe_topk_kernel<<<(num_tokens + 127) / 128, 128>>>(logits, topk_weights, topk_ids, num_tokens, num_experts,
                                                     k);
}
