// One block per token, its threads striding over the hidden dimension.
__global__ void embed_tokens_kernel(const float* weight, const int* ids, float* out, int hidden) {
  int const t = blockIdx.x;
  const float* row = weight + static_cast<long long>(ids[t]) * hidden;
  for (int h = threadIdx.x; h < hidden; h += blockDim.x) out[static_cast<long long>(t) * hidden + h] = row[h];
}

extern "C" void embed_tokens(const float* weight, const int* ids, float* out, int num_tokens, int hidden) {
  if (num_tokens <= 0 || hidden <= 0) return;
  embed_tokens_kernel<<<num_tokens, 128>>>(weight, ids, out, hidden);
}
