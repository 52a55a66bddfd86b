// Each thread finds its element's place: the scores below it, and the equal ones before it.
#include <cuda_bf16.h>

__global__ void place_kernel(int* ids_out, __nv_bfloat16* scores_out, const int* ids,
                             const __nv_bfloat16* scores, int count) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float const mine = __bfloat162float(scores[i]);
  int place = 0;
  for (int j = 0; j < count; ++j) {
    float const other = __bfloat162float(scores[j]);
    if (other < mine || (other == mine && j < i)) ++place;
  }
  scores_out[place] = scores[i];
  ids_out[place] = ids[i];
}

extern "C" void sort_ids_by_score(int* ids_out, __nv_bfloat16* scores_out, const int* ids,
                                  const __nv_bfloat16* scores, int count) {
  if (count <= 0) return;
  place_kernel<<<(count + 255) / 256, 256>>>(ids_out, scores_out, ids, scores, count);
}
