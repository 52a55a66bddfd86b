// Shared by sort-f32 and sort-bf16: out = the n keys of in, sorted ascending (duplicates kept).
// One thread per element would need a global algorithm anyway, so the reference is a bitonic sorting
// network on the length padded to a power of two P, one plain kernel launch per compare-exchange step
// (log2(P) * (log2(P) + 1) / 2 launches), one thread per compare-exchange pair, in place on out after a
// copy of in. Every comparator of this form of the network puts the smaller key at the lower index (the
// first step of each merge compares i with its mirror i ^ (k - 1), the others i with i + j), so the
// virtual padding keys at n .. P-1 can be taken as +infinity: every comparator that touches them leaves
// both places unchanged, and the kernels simply skip pairs that reach beyond n. No scratch, no
// allocation; comparisons only, so the result is exact and deterministic (inputs hold no NaN).
// Slow on purpose (O(n log^2 n) global-memory passes) but obviously correct.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void sort_reference_copy(T* out, const T* in, int n) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// One compare-exchange step of the merge of size k (a power of two) at distance j (j < k): thread t
// handles the pair whose lower index i has bit j clear; with mirror set (j == k/2), its partner is
// i ^ (k - 1), otherwise i + j.
template <typename T>
__global__ void sort_reference_step(T* out, int n, long long k, long long j, bool mirror) {
  long long const t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const i = 2 * t - (t & (j - 1));  // insert a 0 at bit log2(j) of t
  long long const partner = mirror ? (i ^ (k - 1)) : (i + j);
  if (partner >= n) return;  // the partner is padding (+infinity): nothing moves
  T const a = out[i];
  T const b = out[partner];
  if (static_cast<float>(b) < static_cast<float>(a)) {
    out[i] = b;
    out[partner] = a;
  }
}

template <typename T>
void sort_reference(T* out, const T* in, int n) {
  if (n <= 0) return;
  int const block = 256;
  sort_reference_copy<T><<<static_cast<unsigned>((n + block - 1) / block), block>>>(out, in, n);
  long long padded = 1;
  while (padded < n) padded *= 2;
  unsigned const pair_blocks = static_cast<unsigned>((padded / 2 + block - 1) / block);
  for (long long k = 2; k <= padded; k *= 2) {
    for (long long j = k / 2; j >= 1; j /= 2)
      sort_reference_step<T><<<pair_blocks, block>>>(out, n, k, j, j == k / 2);
  }
}
