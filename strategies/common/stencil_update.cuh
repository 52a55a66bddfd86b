// Shared by stencil2d_stream and stencil3d_zstream (spliced by `// kopt:include ../common/stencil_update.cuh`
// after the template defines KOPT_STENCIL_NEIGHBOURS, 4 or 6): how an interior point c is updated from the
// sum of its face neighbours, and the entry parameters that takes.
//   default: the neighbours' mean, sum * (1 / NEIGHBOURS) (a Jacobi sweep);
//   KOPT_STENCIL_HEAT (a manifest `defines`): an explicit heat-equation step, c + r * (sum - NEIGHBOURS c),
//     the caller's `float r` taken after the sizes;
//   KOPT_STENCIL_WEIGHTED: c0 * c + c1 * sum, the caller's `float c0, float c1` after the sizes (a weighted or
//     damped Jacobi sweep, a Helmholtz-like smoother).
// Boundary points are copied by the templates in every case.
#ifndef KOPT_STENCIL_HEAT
#define KOPT_STENCIL_HEAT 0
#endif
#ifndef KOPT_STENCIL_WEIGHTED
#define KOPT_STENCIL_WEIGHTED 0
#endif
#if KOPT_STENCIL_HEAT
#define KOPT_STENCIL_PARAMS , float coef
#define KOPT_STENCIL_UPDATE(c, sum) ((c) + coef * ((sum) - static_cast<float>(KOPT_STENCIL_NEIGHBOURS) * (c)))
#elif KOPT_STENCIL_WEIGHTED
#define KOPT_STENCIL_PARAMS , float c0, float c1
#define KOPT_STENCIL_UPDATE(c, sum) (c0 * (c) + c1 * (sum))
#else
#define KOPT_STENCIL_PARAMS
#define KOPT_STENCIL_UPDATE(c, sum) ((sum) * (1.0f / static_cast<float>(KOPT_STENCIL_NEIGHBOURS)))
#endif
