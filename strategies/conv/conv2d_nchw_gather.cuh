// The implicit-GEMM view of a multi-channel NCHW convolution shared by conv2d_nchw_implicit_gemm and
// conv2d_nchw_implicit_gemm_mma (include lines, docs/strategies.md). The product is taken transposed,
//   Y'[co][m] = sum_k W[co][k] * X'[k][m],
// rows co < Cout (an output channel: W is the row-major Cout x Cin*KH*KW weight tensor as it lies in
// memory) and columns m < N*Ho*Wo (an output pixel: image n = m / (Ho*Wo), position p = m % (Ho*Wo)), so
// that for one channel consecutive columns are consecutive outputs y[n][co][p]. X' is never built: its
// element (k, m), k = (ci*KH + ky)*KW + kx, is x[n][ci][oy*SH - PH + ky*DH][ox*SW - PW + kx*DW], 0 in the
// padding and past k = Cin*KH*KW, gathered on the fly. A thread gathers a fixed pair of adjacent pixels
// (their image and window origin worked out once) at consecutive reduction indices, walked by a
// (ci, ky, kx) cursor with two conditional carries per step instead of divisions.
// The conv2d_nchw families pass a square K x K filter, stride 1, dilation 1 and `pad` on every side
// (geometry()'s square form, which calls the general one with constants that fold); KOPT_CONV_STRIDED
// (conv2d_nchw_strided) passes nn.Conv2d's whole geometry (the general form).
// KOPT_CONV_TRANSPOSED (with KOPT_CONV_STRIDED; family conv_transpose2d_nchw, FFMA template only): the same
// product for nn.ConvTranspose2d, y[n][co][oy][ox] = sum of x[n][ci][iy][ix] * w[ci][co][ky][kx] over the
// (ci, ky, kx) with oy = iy*SH - PH + ky*DH and ox = ix*SW - PW + kx*DW: W'[co][k] is w[ci][co][ky][kx] (the
// weight is Cin x Cout x KH x KW), and X'[k][m] is x[n][ci][(oy + PH - ky*DH) / SH][...] where that division
// is exact and in range, 0 elsewhere (the gather form of the transposed convolution: nothing is scattered,
// so no atomics; a stride of s leaves 1/s of each axis's taps non-zero, computed as zeros).
// KOPT_CONV_3D (with KOPT_CONV_STRIDED; the conv3d_ncdhw and conv_transpose3d_ncdhw families): the same
// products over NCDHW tensors, nn.Conv3d and nn.ConvTranspose3d: a depth axis (D, KD, SD, PD, DD, Do) in
// front of the rows, k = ((ci*KD + kz)*KH + ky)*KW + kx, m = n*Do*Ho*Wo + (oz*Ho + oy)*Wo + ox, `plane` and
// `out_plane` the volumes D*H*W and Do*Ho*Wo. Without it none of the depth code is compiled.

#ifndef KOPT_CONV_BIAS
#define KOPT_CONV_BIAS 0
#endif
#ifndef KOPT_CONV_STRIDED
#define KOPT_CONV_STRIDED 0
#endif
#ifndef KOPT_CONV_TRANSPOSED
#define KOPT_CONV_TRANSPOSED 0
#endif
#ifndef KOPT_CONV_3D
#define KOPT_CONV_3D 0
#endif

namespace conv_nchw_gather {

using Elem = {{T}};

// The sizes of one call, with the output extents (Ho = (H + 2*PH - DH*(KH - 1) - 1) / SH + 1) and the
// GEMM's.
struct Geometry {
  int Cin, Cout, H, W;
  int KH, KW;  // filter rows and columns
  int SH, SW;  // strides
  int PH, PW;  // zero padding above and below, left and right
  int DH, DW;  // dilations
  int Ho, Wo;
#if KOPT_CONV_3D
  int D, KD, SD, PD, DD, Do;  // the depth axis: extent, filter, stride, padding, dilation, output extent
#endif
  int plane;         // H * W (3-D: D * H * W)
  int out_plane;     // Ho * Wo (3-D: Do * Ho * Wo)
  int taps;          // Cin * KH * KW (3-D: Cin * KD * KH * KW), the reduction length
  long long pixels;  // N * out_plane
  long long image;   // Cin * plane, elements of one input image
};

// An output extent: floor((in + 2*pad - dil*(k - 1) - 1) / stride) + 1, and at most 0 where no window fits
// (a negative numerator, which C++'s division would round towards 0: span + 1 then, which has_outputs
// refuses; for stride 1 both forms are span + 1, so the square geometry's code is the plain one).
__device__ __forceinline__ int out_extent(int in, int k, int stride, int pad, int dil) {
  int const span = in + 2 * pad - dil * (k - 1) - 1;
  if (stride <= 0) return 0;
  return span < 0 ? span + 1 : span / stride + 1;
}

__device__ __forceinline__ Geometry geometry(int N, int Cin, int Cout, int H, int W, int KH, int KW, int SH,
                                             int SW, int PH, int PW, int DH, int DW) {
  Geometry g;
  g.Cin = Cin;
  g.Cout = Cout;
  g.H = H;
  g.W = W;
  g.KH = KH;
  g.KW = KW;
  g.SH = SH;
  g.SW = SW;
  g.PH = PH;
  g.PW = PW;
  g.DH = DH;
  g.DW = DW;
  g.Ho = out_extent(H, KH, SH, PH, DH);
  g.Wo = out_extent(W, KW, SW, PW, DW);
  g.plane = H * W;
  g.out_plane = g.Ho * g.Wo;
  g.taps = Cin > 0 && KH > 0 && KW > 0 ? Cin * KH * KW : 0;
  g.pixels = static_cast<long long>(N) * g.out_plane;
  g.image = static_cast<long long>(Cin) * H * W;
  return g;
}

// A square K x K filter, stride 1, dilation 1, `pad` on every side (the conv2d_nchw families).
__device__ __forceinline__ Geometry geometry(int N, int Cin, int Cout, int H, int W, int K, int pad) {
  return geometry(N, Cin, Cout, H, W, K, K, 1, 1, pad, pad, 1, 1);
}

#if KOPT_CONV_TRANSPOSED
// nn.ConvTranspose2d's geometry: Ho = (H - 1)*SH - 2*PH + DH*(KH - 1) + OPH + 1 (likewise Wo), none for an
// empty input. The other fields keep their meanings (KH, KW the filter, taps = Cin*KH*KW).
__device__ __forceinline__ Geometry geometry_transposed(int N, int Cin, int Cout, int H, int W, int KH,
                                                        int KW, int SH, int SW, int PH, int PW, int DH,
                                                        int DW, int OPH, int OPW) {
  Geometry g = geometry(N, Cin, Cout, H, W, KH, KW, SH, SW, PH, PW, DH, DW);
  bool const strided = SH > 0 && SW > 0;  // the gather divides by the strides: none without them
  g.Ho = H > 0 && strided ? (H - 1) * SH - 2 * PH + DH * (KH - 1) + OPH + 1 : 0;
  g.Wo = W > 0 && strided ? (W - 1) * SW - 2 * PW + DW * (KW - 1) + OPW + 1 : 0;
  g.out_plane = g.Ho > 0 && g.Wo > 0 ? g.Ho * g.Wo : 0;
  g.pixels = static_cast<long long>(N) * g.out_plane;
  return g;
}
#endif

#if KOPT_CONV_3D
// The depth axis of nn.Conv3d (its output extent `Do`, computed by the caller) added to the 2-D geometry `g`
// of the rows and columns: the volumes and the reduction over it.
__device__ __forceinline__ Geometry with_depth(Geometry g, int N, int D, int KD, int SD, int PD, int DD,
                                               int Do) {
  g.D = D;
  g.KD = KD;
  g.SD = SD;
  g.PD = PD;
  g.DD = DD;
  g.Do = Do;
  g.plane = D * g.H * g.W;
  g.out_plane = Do > 0 && g.Ho > 0 && g.Wo > 0 ? Do * g.Ho * g.Wo : 0;
  g.taps = g.Cin > 0 && KD > 0 && g.KH > 0 && g.KW > 0 ? g.Cin * KD * g.KH * g.KW : 0;
  g.pixels = static_cast<long long>(N) * g.out_plane;
  g.image = static_cast<long long>(g.Cin) * D * g.H * g.W;
  return g;
}

// nn.Conv3d's geometry: a KD x KH x KW filter, strides, padding and dilations per axis.
__device__ __forceinline__ Geometry geometry_3d(int N, int Cin, int Cout, int D, int H, int W, int KD, int KH,
                                                int KW, int SD, int SH, int SW, int PD, int PH, int PW,
                                                int DD, int DH, int DW) {
  return with_depth(geometry(N, Cin, Cout, H, W, KH, KW, SH, SW, PH, PW, DH, DW), N, D, KD, SD, PD, DD,
                    out_extent(D, KD, SD, PD, DD));
}

#if KOPT_CONV_TRANSPOSED
// nn.ConvTranspose3d's: Do = (D - 1)*SD - 2*PD + DD*(KD - 1) + OPD + 1, Ho and Wo likewise.
__device__ __forceinline__ Geometry geometry_transposed_3d(int N, int Cin, int Cout, int D, int H, int W,
                                                           int KD, int KH, int KW, int SD, int SH, int SW,
                                                           int PD, int PH, int PW, int DD, int DH, int DW,
                                                           int OPD, int OPH, int OPW) {
  int const Do = D > 0 && SD > 0 ? (D - 1) * SD - 2 * PD + DD * (KD - 1) + OPD + 1 : 0;
  return with_depth(geometry_transposed(N, Cin, Cout, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OPH, OPW), N, D,
                    KD, SD, PD, DD, Do);
}
#endif
#endif

// Whether the call has any output (a "valid" convolution with K > H or K > W has none).
__device__ __forceinline__ bool has_outputs(Geometry const& g, int N) {
#if KOPT_CONV_3D
  if (g.Do <= 0) return false;
#endif
  return N > 0 && g.Cout > 0 && g.Ho > 0 && g.Wo > 0;
}

// Taps per input channel: KH * KW (3-D: KD * KH * KW).
__device__ __forceinline__ int window_taps(Geometry const& g) {
#if KOPT_CONV_3D
  return g.KD * g.KH * g.KW;
#else
  return g.KH * g.KW;
#endif
}

// A reduction index k = (ci*KH + ky)*KW + kx (3-D: ((ci*KD + kz)*KH + ky)*KW + kx) split into its input
// channel, filter plane, row and column.
struct Tap {
  int ci;
#if KOPT_CONV_3D
  int kz;
#endif
  int ky, kx;
};

// The filter's extents as the tap cursor walks them.
struct Window {
#if KOPT_CONV_3D
  int KD;
#endif
  int KH, KW;
};

// The filter of g.
__device__ __forceinline__ Window window(Geometry const& g) {
#if KOPT_CONV_3D
  return Window{g.KD, g.KH, g.KW};
#else
  return Window{g.KH, g.KW};
#endif
}

// The filter of g with every extent at least 1, for the cursors a kernel sets up before it knows whether
// there are taps at all (a filter extent <= 0 has none: taps == 0, and those cursors are never used).
__device__ __forceinline__ Window cursor_window(Geometry const& g) {
#if KOPT_CONV_3D
  return Window{g.KD > 0 ? g.KD : 1, g.KH > 0 ? g.KH : 1, g.KW > 0 ? g.KW : 1};
#else
  return Window{g.KH > 0 ? g.KH : 1, g.KW > 0 ? g.KW : 1};
#endif
}

// k as (ci, [kz,] ky, kx) for a filter f of positive extents; for a step d the parts are its own (kz < KD,
// ky < KH, kx < KW), so adding it (advance) needs one conditional carry per axis instead of divisions.
__device__ __forceinline__ Tap split(int k, Window const& f) {
  int const kk = f.KH * f.KW;
#if KOPT_CONV_3D
  int const kv = f.KD * kk;
  int const r = k % kv;
  int const q = r % kk;
  return Tap{k / kv, r / kk, q / f.KW, q % f.KW};
#else
  int const r = k % kk;
  return Tap{k / kk, r / f.KW, r % f.KW};
#endif
}

__device__ __forceinline__ void advance(Tap& t, Tap const& step, Window const& f) {
  t.kx += step.kx;
  int carry = 0;
  if (t.kx >= f.KW) {
    t.kx -= f.KW;
    carry = 1;
  }
  t.ky += step.ky + carry;  // at most 2KH - 1
  carry = 0;
  if (t.ky >= f.KH) {
    t.ky -= f.KH;
    carry = 1;
  }
#if KOPT_CONV_3D
  t.kz += step.kz + carry;
  carry = 0;
  if (t.kz >= f.KD) {
    t.kz -= f.KD;
    carry = 1;
  }
#endif
  t.ci += step.ci + carry;
}

// One output pixel's view of x: its image, and the input row and column of its window's corner (transposed:
// oy + PH and ox + PW, from which a tap's input row is (iy0 - ky*DH) / SH). A pixel past the last one gets a
// corner so far outside that no tap of it is ever read.
struct Pixel {
  Elem const* image;
#if KOPT_CONV_3D
  int iz0;
#endif
  int iy0, ix0;
};

// The image of output column m (m < pixels): a 32-bit division when every column index fits in 32 bits.
__device__ __forceinline__ long long image_of(Geometry const& g, long long m) {
  if (g.pixels <= 0x7fffffffLL) return static_cast<unsigned>(m) / static_cast<unsigned>(g.out_plane);
  return m / g.out_plane;
}

__device__ __forceinline__ Pixel pixel(Elem const* x, Geometry const& g, long long m) {
#if KOPT_CONV_3D
  if (m >= g.pixels) return Pixel{x, -(1 << 30), -(1 << 30), -(1 << 30)};
#else
  if (m >= g.pixels) return Pixel{x, -(1 << 30), -(1 << 30)};
#endif
  long long const n = image_of(g, m);
  int p = static_cast<int>(m - n * g.out_plane);
#if KOPT_CONV_3D
  int const oz = p / (g.Ho * g.Wo);
  p -= oz * (g.Ho * g.Wo);
#endif
  int const oy = p / g.Wo;
  int const ox = p - oy * g.Wo;
#if KOPT_CONV_3D && KOPT_CONV_TRANSPOSED
  return Pixel{x + n * g.image, oz + g.PD, oy + g.PH, ox + g.PW};
#elif KOPT_CONV_3D
  return Pixel{x + n * g.image, oz * g.SD - g.PD, oy * g.SH - g.PH, ox * g.SW - g.PW};
#elif KOPT_CONV_TRANSPOSED
  return Pixel{x + n * g.image, oy + g.PH, ox + g.PW};
#else
  return Pixel{x + n * g.image, oy * g.SH - g.PH, ox * g.SW - g.PW};
#endif
}

// X'[k][m] for the tap t of pixel px: the input value, or 0 in the padding and past the last channel.
__device__ __forceinline__ Elem tap(Pixel const& px, Tap const& t, Geometry const& g) {
#if KOPT_CONV_TRANSPOSED
  int const ny = px.iy0 - t.ky * g.DH;
  int const nx = px.ix0 - t.kx * g.DW;
  int const iy = ny / g.SH;
  int const ix = nx / g.SW;
  bool inside =
      t.ci < g.Cin && ny >= 0 && nx >= 0 && iy * g.SH == ny && ix * g.SW == nx && iy < g.H && ix < g.W;
#if KOPT_CONV_3D
  int const nz = px.iz0 - t.kz * g.DD;
  int const iz = nz / g.SD;
  inside = inside && nz >= 0 && iz * g.SD == nz && iz < g.D;
#endif
#else
  int const iy = px.iy0 + t.ky * g.DH;
  int const ix = px.ix0 + t.kx * g.DW;
  bool inside = t.ci < g.Cin && static_cast<unsigned>(iy) < static_cast<unsigned>(g.H) &&
                static_cast<unsigned>(ix) < static_cast<unsigned>(g.W);
#if KOPT_CONV_3D
  int const iz = px.iz0 + t.kz * g.DD;
  inside = inside && static_cast<unsigned>(iz) < static_cast<unsigned>(g.D);
#endif
#endif
#if KOPT_CONV_3D
  return inside ? px.image[static_cast<long long>(t.ci) * g.plane + (iz * g.H + iy) * g.W + ix]
                : kopt_strategy::from_float<Elem>(0.0f);
#else
  return inside ? px.image[static_cast<long long>(t.ci) * g.plane + iy * g.W + ix]
                : kopt_strategy::from_float<Elem>(0.0f);
#endif
}

// Where output column m lies in y, less the channel's co * Ho * Wo: n * Cout * Ho * Wo + p.
__device__ __forceinline__ long long column_offset(Geometry const& g, long long m) {
  long long const n = image_of(g, m);
  return n * g.Cout * g.out_plane + (m - n * g.out_plane);
}

// KOPT_CONV_BIAS (a manifest `defines`, family conv2d_nchw_bias): the entry also takes the per-output-channel
// bias, last, and each output is KOPT_CONV_OP (the task's `op`, a C++ expression over v in FP32) of the
// convolution plus its channel's bias, before its one rounding: nn.Conv2d with its bias and an element-wise
// chain after it, in the store. Without it the epilogue is the identity and the kernels are as they were.
// KOPT_CONV_CHANNEL as well (family conv2d_nchw_bias_channel): the entry takes a second per-output-channel
// vector after the bias (a parameter the chain reads, such as KernelBench's `x + self.bias` after a ReLU),
// and KOPT_CONV_OP reads its channel's value as p.
#if KOPT_CONV_CHANNEL
struct Epilogue {
  Elem const* bias;
  Elem const* channel;
  __device__ __forceinline__ float operator()(float acc, int co) const {
    float const v = acc + kopt_strategy::to_float(bias[co]);
    float const p = kopt_strategy::to_float(channel[co]);
    return KOPT_CONV_OP;
  }
};
#elif KOPT_CONV_BIAS
struct Epilogue {
  Elem const* bias;
  __device__ __forceinline__ float operator()(float acc, int co) const {
    float const v = acc + kopt_strategy::to_float(bias[co]);
    return KOPT_CONV_OP;
  }
};
#else
struct Epilogue {
  __device__ __forceinline__ float operator()(float acc, int /*co*/) const { return acc; }
};
#endif

}  // namespace conv_nchw_gather
