// The second half of split_k and split_k_mma (include lines, docs/strategies.md), spliced inside the
// strategy's namespace after its partial kernel: the kernel that adds the SPLITS FP32 partial products in
// slice order and rounds once to Elem, the workspace that holds the partials, and the launch of the sum.
// Needs Elem and SPLITS.

constexpr int kReduceThreads = 256;

// C[i] = sum over z in order of partial[z][i], rounded once to Elem. Four elements per thread when aligned.
__global__ void __launch_bounds__(kReduceThreads)
    sum_kernel(Elem* __restrict__ C, float const* __restrict__ partial, long long count) {
  long long const stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long const first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  bool const vec = count % 4 == 0 && kopt_strategy::aligned_to(C, 4 * sizeof(Elem));
  if (vec) {
    long long const count4 = count / 4;
    for (long long i = first; i < count4; i += stride) {
      float4 sum = reinterpret_cast<float4 const*>(partial)[i];
#pragma unroll 4
      for (int z = 1; z < SPLITS; ++z) {
        float4 const p = reinterpret_cast<float4 const*>(partial + z * count)[i];
        sum.x += p.x;
        sum.y += p.y;
        sum.z += p.z;
        sum.w += p.w;
      }
      kopt_strategy::Pack<Elem, 4> out;
      out.v[0] = kopt_strategy::from_float<Elem>(sum.x);
      out.v[1] = kopt_strategy::from_float<Elem>(sum.y);
      out.v[2] = kopt_strategy::from_float<Elem>(sum.z);
      out.v[3] = kopt_strategy::from_float<Elem>(sum.w);
      kopt_strategy::store_pack<Elem, 4>(C + 4 * i, out);
    }
  } else {
    for (long long i = first; i < count; i += stride) {
      float sum = partial[i];
#pragma unroll 4
      for (int z = 1; z < SPLITS; ++z) sum += partial[z * count + i];
      C[i] = kopt_strategy::from_float<Elem>(sum);
    }
  }
}

// The workspace: allocated on first use, grown (never shrunk) when a larger problem needs more.
float* workspace(size_t bytes) {
  static float* buffer = nullptr;
  static size_t capacity = 0;
  if (bytes > capacity) {
    if (buffer != nullptr) cudaFree(buffer);  // implicitly waits for the work that still uses it
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
      buffer = nullptr;
      return nullptr;
    }
    capacity = bytes;
  }
  return buffer;
}

// C = the sum of the SPLITS partials of count elements, grid-stride beyond 16 blocks per SM of an H200.
void launch_sum(Elem* C, float const* partial, long long count) {
  long long const work = count % 4 == 0 ? count / 4 : count;
  long long blocks = (work + kReduceThreads - 1) / kReduceThreads;
  if (blocks > 132 * 16) blocks = 132 * 16;
  sum_kernel<<<static_cast<unsigned>(blocks), kReduceThreads, 0, kopt_strategy::launch_stream()>>>(C, partial, count);
}
