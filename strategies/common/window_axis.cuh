// One axis of a sliding window (spliced into the pooling and depthwise-convolution templates' namespaces by
// `// kopt:include ../common/window_axis.cuh`): its input and output extents, taps, stride, zero padding and
// dilation, the output extent in floor mode, and which taps of a window lie inside the input.
struct Axis {
  int in;   // input extent
  int out;  // output extent
  int k;    // window taps
  int stride;
  int pad;
  int dilation;
};

// The output extent of one axis, floor((in + 2p - d*(k - 1) - 1) / s) + 1, or 0 when the window does not fit.
int out_extent(int in, int k, int s, int p, int d) {
  long long const span = static_cast<long long>(in) + 2LL * p - static_cast<long long>(d) * (k - 1) - 1;
  return span < 0 || s <= 0 ? 0 : static_cast<int>(span / s + 1);
}

// The axis with its output extent.
Axis window_axis(int in, int k, int s, int p, int d) { return Axis{in, out_extent(in, k, s, p, d), k, s, p, d}; }

// Taps i < k of a window starting at `start` (dilation d) that lie below `limit`.
__device__ __forceinline__ int taps_below(int start, int k, int d, int limit) {
  if (start >= limit) return 0;
  int const n = (limit - start + d - 1) / d;
  return n < k ? n : k;
}

// The taps [first, last) of a window starting at `start` (dilation d, k taps) that lie inside [0, in).
__device__ __forceinline__ void inside(int start, int k, int d, int in, int& first, int& last) {
  first = start >= 0 ? 0 : (-start + d - 1) / d;
  last = taps_below(start, k, d, in);
  if (last < first) last = first;
}
