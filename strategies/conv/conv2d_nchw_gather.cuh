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
// so no atomics). The division is exact only for the taps ky with ky*DH = oy + PH (mod SH): with a stride of s,
// 1/s of each axis's taps. So the product is split by phase (the sub-pixel form): the outputs whose
// (o + P) % S is one residue r per axis form a phase, reached by the taps k = k0 + j*kstep only (k0*D = r
// mod S, kstep the least step with kstep*D = 0 mod S), whose input positions step by kstep*D/S per tap: no
// division and no zero product. Each phase is a dense product of its own (columns: its outputs, reduction:
// Cin times its taps); the blocks' columns (blockIdx.x) run through the phases one after another, each from a
// tile boundary (phase_of), so a block's tile holds one phase and one sub-filter. A phase no tap reaches (a
// stride above the filter, or a dilation sharing a factor with the stride) gets only the epilogue of 0.
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
#if KOPT_CONV_TRANSPOSED
  // The block's phase (phase_of), per axis: its taps (the cursor's window), the first one and the step between
  // them, the step of the input position per tap, its first output and its count of outputs; its outputs per
  // image.
  int TKH, TKW, ky0, kx0, kys, kxs, qy, qx, oy0, ox0, cy, cx;
#if KOPT_CONV_3D
  int TKD, kz0, kzs, qz, oz0, cz;
#endif
  int phase_plane;
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

#if KOPT_CONV_TRANSPOSED
// One axis of a phase of residue r: the outputs o < out with (o + pad) % stride == r (from o0, every stride-th,
// `count` of them) and the taps k < K with (k*dil - r) % stride == 0 (from k0, every kstep-th, `taps` of them;
// none when k0 == K), whose input position (o + pad - k*dil) / stride is whole and moves by q = kstep*dil /
// stride per tap. stride > 0 and pad >= 0 (nn.ConvTranspose's).
struct AxisPhase {
  int o0, count, k0, kstep, q, taps;
};

__device__ __forceinline__ AxisPhase axis_phase(int r, int out, int K, int stride, int pad, int dil) {
  AxisPhase a;
  a.o0 = (r - pad % stride + stride) % stride;
  a.count = a.o0 < out ? (out - a.o0 + stride - 1) / stride : 0;
  a.kstep = 1;
  while (a.kstep < stride && (a.kstep * dil) % stride != 0) ++a.kstep;
  a.q = a.kstep * dil / stride;
  a.k0 = K;  // the taps repeat every kstep: the first, if any, is below it
  for (int k = 0; k < a.kstep && k < K; ++k) {
    if ((k * dil - r) % stride == 0) {
      a.k0 = k;
      break;
    }
  }
  a.taps = a.k0 < K ? (K - a.k0 + a.kstep - 1) / a.kstep : 0;
  return a;
}

// Restricts g to the phase of the block `tile` (blockIdx.x) and sets `tile` to the block's tile within it. The
// phases (p = (rz*SH + ry)*SW + rx) take ceil(N * outputs / tile_columns) tiles each, one after another; the
// launch gives one tile more per phase than the columns need, so false for a block past the last phase's tiles.
// g.pixels becomes the phase's columns and g.taps its reduction length.
__device__ __forceinline__ bool phase_of(Geometry& g, int N, long long& tile, int tile_columns) {
#if KOPT_CONV_3D
  int const phases = g.SD * g.SH * g.SW;
#else
  int const phases = g.SH * g.SW;
#endif
  for (int p = 0; p < phases; ++p) {
    AxisPhase const ax = axis_phase(p % g.SW, g.Wo, g.KW, g.SW, g.PW, g.DW);
    AxisPhase const ay = axis_phase(p / g.SW % g.SH, g.Ho, g.KH, g.SH, g.PH, g.DH);
    int plane = ay.count * ax.count;
    int taps = ay.taps * ax.taps;
#if KOPT_CONV_3D
    AxisPhase const az = axis_phase(p / (g.SW * g.SH), g.Do, g.KD, g.SD, g.PD, g.DD);
    plane *= az.count;
    taps *= az.taps;
#endif
    long long const columns = static_cast<long long>(N) * plane;
    long long const tiles = (columns + tile_columns - 1) / tile_columns;
    if (tile >= tiles) {
      tile -= tiles;
      continue;
    }
    g.TKH = ay.taps;
    g.TKW = ax.taps;
    g.ky0 = ay.k0;
    g.kx0 = ax.k0;
    g.kys = ay.kstep;
    g.kxs = ax.kstep;
    g.qy = ay.q;
    g.qx = ax.q;
    g.oy0 = ay.o0;
    g.ox0 = ax.o0;
    g.cy = ay.count;
    g.cx = ax.count;
#if KOPT_CONV_3D
    g.TKD = az.taps;
    g.kz0 = az.k0;
    g.kzs = az.kstep;
    g.qz = az.q;
    g.oz0 = az.o0;
    g.cz = az.count;
#endif
    g.phase_plane = plane;
    g.pixels = columns;
    g.taps = g.Cin > 0 ? g.Cin * taps : 0;
    return true;
  }
  return false;
}
#endif

// Whether the call has any output (a "valid" convolution with K > H or K > W has none).
__device__ __forceinline__ bool has_outputs(Geometry const& g, int N) {
#if KOPT_CONV_3D
  if (g.Do <= 0) return false;
#endif
  return N > 0 && g.Cout > 0 && g.Ho > 0 && g.Wo > 0;
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

// The filter of g (transposed: the taps of the block's phase, which the cursor walks).
__device__ __forceinline__ Window window(Geometry const& g) {
#if KOPT_CONV_3D && KOPT_CONV_TRANSPOSED
  return Window{g.TKD, g.TKH, g.TKW};
#elif KOPT_CONV_3D
  return Window{g.KD, g.KH, g.KW};
#elif KOPT_CONV_TRANSPOSED
  return Window{g.TKH, g.TKW};
#else
  return Window{g.KH, g.KW};
#endif
}

// The filter of g with every extent at least 1, for the cursors a kernel sets up before it knows whether
// there are taps at all (a filter extent <= 0 has none: taps == 0, and those cursors are never used).
__device__ __forceinline__ Window cursor_window(Geometry const& g) {
#if KOPT_CONV_3D && KOPT_CONV_TRANSPOSED
  return Window{g.TKD > 0 ? g.TKD : 1, g.TKH > 0 ? g.TKH : 1, g.TKW > 0 ? g.TKW : 1};
#elif KOPT_CONV_3D
  return Window{g.KD > 0 ? g.KD : 1, g.KH > 0 ? g.KH : 1, g.KW > 0 ? g.KW : 1};
#elif KOPT_CONV_TRANSPOSED
  return Window{g.TKH > 0 ? g.TKH : 1, g.TKW > 0 ? g.TKW : 1};
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
// the input row of the phase's first tap, (oy + PH - ky0*DH) / SH, from which the phase's tap j is j*qy rows
// up). A pixel past the last one gets a corner so far outside that no tap of it is ever read.
struct Pixel {
  Elem const* image;
#if KOPT_CONV_3D
  int iz0;
#endif
  int iy0, ix0;
};

// Columns per image: the output plane (transposed: the block's phase's outputs of one image).
__device__ __forceinline__ int image_columns(Geometry const& g) {
#if KOPT_CONV_TRANSPOSED
  return g.phase_plane;
#else
  return g.out_plane;
#endif
}

// The image of output column m (m < pixels): a 32-bit division when every column index fits in 32 bits.
__device__ __forceinline__ long long image_of(Geometry const& g, long long m) {
  if (g.pixels <= 0x7fffffffLL) return static_cast<unsigned>(m) / static_cast<unsigned>(image_columns(g));
  return m / image_columns(g);
}

#if KOPT_CONV_TRANSPOSED
// The output position of the phase's column m (m < pixels): its image n and (oz,) oy, ox.
struct PhaseOutput {
  long long n;
#if KOPT_CONV_3D
  int oz;
#endif
  int oy, ox;
};

__device__ __forceinline__ PhaseOutput phase_output(Geometry const& g, long long m) {
  PhaseOutput o;
  o.n = image_of(g, m);
  int p = static_cast<int>(m - o.n * g.phase_plane);
#if KOPT_CONV_3D
  int const jz = p / (g.cy * g.cx);
  p -= jz * (g.cy * g.cx);
  o.oz = g.oz0 + jz * g.SD;
#endif
  int const jy = p / g.cx;
  o.oy = g.oy0 + jy * g.SH;
  o.ox = g.ox0 + (p - jy * g.cx) * g.SW;
  return o;
}
#endif

__device__ __forceinline__ Pixel pixel(Elem const* x, Geometry const& g, long long m) {
#if KOPT_CONV_3D
  if (m >= g.pixels) return Pixel{x, -(1 << 30), -(1 << 30), -(1 << 30)};
#else
  if (m >= g.pixels) return Pixel{x, -(1 << 30), -(1 << 30)};
#endif
#if KOPT_CONV_TRANSPOSED
  // Exact divisions for a phase with taps (its first tap's input position); unused for one without.
  PhaseOutput const o = phase_output(g, m);
  int const iy0 = (o.oy + g.PH - g.ky0 * g.DH) / g.SH;
  int const ix0 = (o.ox + g.PW - g.kx0 * g.DW) / g.SW;
#if KOPT_CONV_3D
  return Pixel{x + o.n * g.image, (o.oz + g.PD - g.kz0 * g.DD) / g.SD, iy0, ix0};
#else
  return Pixel{x + o.n * g.image, iy0, ix0};
#endif
#else
  long long const n = image_of(g, m);
  int p = static_cast<int>(m - n * g.out_plane);
#if KOPT_CONV_3D
  int const oz = p / (g.Ho * g.Wo);
  p -= oz * (g.Ho * g.Wo);
#endif
  int const oy = p / g.Wo;
  int const ox = p - oy * g.Wo;
#if KOPT_CONV_3D
  return Pixel{x + n * g.image, oz * g.SD - g.PD, oy * g.SH - g.PH, ox * g.SW - g.PW};
#else
  return Pixel{x + n * g.image, oy * g.SH - g.PH, ox * g.SW - g.PW};
#endif
#endif
}

// X'[k][m] for the tap t of pixel px: the input value, or 0 in the padding and past the last channel.
__device__ __forceinline__ Elem tap(Pixel const& px, Tap const& t, Geometry const& g) {
#if KOPT_CONV_TRANSPOSED
  // The phase's tap j is filter tap k0 + j*kstep, its input position j*q before the first tap's.
  int const iy = px.iy0 - t.ky * g.qy;
  int const ix = px.ix0 - t.kx * g.qx;
  bool inside = t.ci < g.Cin && static_cast<unsigned>(iy) < static_cast<unsigned>(g.H) &&
                static_cast<unsigned>(ix) < static_cast<unsigned>(g.W);
#if KOPT_CONV_3D
  int const iz = px.iz0 - t.kz * g.qz;
  inside = inside && static_cast<unsigned>(iz) < static_cast<unsigned>(g.D);
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
#if KOPT_CONV_TRANSPOSED
  PhaseOutput const o = phase_output(g, m);
#if KOPT_CONV_3D
  int const p = (o.oz * g.Ho + o.oy) * g.Wo + o.ox;
#else
  int const p = o.oy * g.Wo + o.ox;
#endif
  return o.n * g.Cout * g.out_plane + p;
#else
  long long const n = image_of(g, m);
  return n * g.Cout * g.out_plane + (m - n * g.out_plane);
#endif
}

#if KOPT_CONV_TRANSPOSED
// Whether consecutive columns are consecutive outputs of an image: only with stride 1 on every axis, the one
// phase being the whole output.
__device__ __forceinline__ bool columns_contiguous(Geometry const& g) {
#if KOPT_CONV_3D
  return g.SD == 1 && g.SH == 1 && g.SW == 1;
#else
  return g.SH == 1 && g.SW == 1;
#endif
}

// W'[co][k] for the phase's reduction index k (its tap t): w[ci][co][kz][ky][kx] at the filter tap k0 + j*kstep
// of each axis; 0 past the channels or the taps.
__device__ __forceinline__ float transposed_weight(Elem const* w, Geometry const& g, int co, int k,
                                                   Tap const& t) {
  if (co >= g.Cout || k >= g.taps) return 0.0f;
  long long i = static_cast<long long>(t.ci) * g.Cout + co;
#if KOPT_CONV_3D
  i = i * g.KD + g.kz0 + t.kz * g.kzs;
#endif
  i = (i * g.KH + g.ky0 + t.ky * g.kys) * g.KW + g.kx0 + t.kx * g.kxs;
  return kopt_strategy::to_float(w[i]);
}
#endif

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
