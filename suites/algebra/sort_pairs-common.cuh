// Shared by sort_pairs-f32 and sort_pairs-bf16: keys_out = the n keys of keys_in in ascending order and
// values_out = values_in permuted the same way, STABLE: equal keys (-0 and +0 are equal) keep their input
// order (cub::DeviceRadixSort::SortPairs, thrust::stable_sort_by_key). Inputs hold no NaN.
//
// Reference: the bitonic sorting network of ../sort-common.cuh (one plain kernel launch per
// compare-exchange step, one thread per compare-exchange pair, on the length padded to a power of two P),
// applied to (key, original index) pairs in keys_out and values_out: values_out starts as 0 .. n-1, and a
// pair is smaller when its key compares smaller as a float or the keys are equal and its index is smaller.
// That order is total (indices differ), so the network's result is the one stable order; a last kernel
// replaces each index i by values_in[i]. Every comparator puts the smaller pair at the lower index, so the
// virtual padding pairs at n .. P-1 can be taken as (+infinity, index >= n), larger than every real pair:
// every comparator that touches them leaves both places unchanged, and the kernels skip pairs that reach
// beyond n. No scratch, no allocation; comparisons only, so the result is exact and deterministic.
// Slow on purpose (O(n log^2 n) global-memory passes) but obviously correct.
//
// The vendor baseline (CUB) is in sort_pairs-cub.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <typename T>
__global__ void sort_pairs_reference_init(T* keys_out, int* values_out, const T* keys_in, int n) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    keys_out[i] = keys_in[i];
    values_out[i] = static_cast<int>(i);
  }
}

// One compare-exchange step of the merge of size k (a power of two) at distance j (j < k) on (key, index)
// pairs: thread t handles the pair whose lower index i has bit j clear; with mirror set (j == k/2), its
// partner is i ^ (k - 1), otherwise i + j.
template <typename T>
__global__ void sort_pairs_reference_step(T* keys, int* index, int n, long long k, long long j, bool mirror) {
  long long const t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const i = 2 * t - (t & (j - 1));  // insert a 0 at bit log2(j) of t
  long long const partner = mirror ? (i ^ (k - 1)) : (i + j);
  if (partner >= n) return;  // the partner is padding (+infinity): nothing moves
  T const a = keys[i];
  T const b = keys[partner];
  float const fa = static_cast<float>(a);
  float const fb = static_cast<float>(b);
  int const ia = index[i];
  int const ib = index[partner];
  if (fb < fa || (fb == fa && ib < ia)) {
    keys[i] = b;
    keys[partner] = a;
    index[i] = ib;
    index[partner] = ia;
  }
}

// values_out[r] holds the original index of the pair of rank r: replace it by that pair's value.
__global__ void sort_pairs_reference_gather(int* values_out, const int* values_in, int n) {
  long long const r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < n) values_out[r] = values_in[values_out[r]];
}

template <typename T>
void sort_pairs_reference(T* keys_out, int* values_out, const T* keys_in, const int* values_in, int n) {
  if (n <= 0) return;
  int const block = 256;
  unsigned const element_blocks = static_cast<unsigned>((n + block - 1) / block);
  sort_pairs_reference_init<T><<<element_blocks, block>>>(keys_out, values_out, keys_in, n);
  long long padded = 1;
  while (padded < n) padded *= 2;
  unsigned const pair_blocks = static_cast<unsigned>((padded / 2 + block - 1) / block);
  for (long long k = 2; k <= padded; k *= 2) {
    for (long long j = k / 2; j >= 1; j /= 2)
      sort_pairs_reference_step<T><<<pair_blocks, block>>>(keys_out, values_out, n, k, j, j == k / 2);
  }
  sort_pairs_reference_gather<<<element_blocks, block>>>(values_out, values_in, n);
}
