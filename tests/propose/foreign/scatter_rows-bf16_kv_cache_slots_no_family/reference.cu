// One block per token, its threads striding over the hidden dimension.
#include <cuda_bf16.h>

__global__ void write_kv_slots_kernel(__nv_bfloat16* cache, const __nv_bfloat16* new_kv,
                                      const int* slot_mapping, int hidden) {
  int const t = blockIdx.x;
  __nv_bfloat16* row = cache + static_cast<long long>(slot_mapping[t]) * hidden;
  for (int h = threadIdx.x; h < hidden; h += blockDim.x)
    row[h] = new_kv[static_cast<long long>(t) * hidden + h];
}

extern "C" void write_kv_slots(__nv_bfloat16* cache, const __nv_bfloat16* new_kv, const int* slot_mapping,
                               int num_tokens, int hidden) {
  if (num_tokens <= 0 || hidden <= 0) return;
  write_kv_slots_kernel<<<num_tokens, 256>>>(cache, new_kv, slot_mapping, hidden);
}
