// Shared by the variants of row_cumsum (row-major rows x cols matrices, every row r and column c):
// - row_cumsum_reverse-f32/-bf16 (family row_scan_reverse): out[r*cols + c] = in[r*cols + c] + ... +
//   in[r*cols + cols - 1], the suffix sum (torch.cumsum(x.flip(-1), -1).flip(-1));
// - row_cumprod-f32/-bf16 (row_cumprod): out[r*cols + c] = in[r*cols] * ... * in[r*cols + c]
//   (torch.cumprod(x, dim=-1));
// - row_cumsum_masked-f32/-bf16 (row_scan_masked): out[r*cols + c] = the sum over k <= c of in[r*cols + k] *
//   (mask[r*cols + k] != 0 ? 1 : 0), mask one byte per element (torch.cumsum(x * mask, dim=-1), bool mask);
// - row_cumsum_exclusive-f32/-bf16 (row_scan_exclusive): out[r*cols + c] = in[r*cols] + ... +
//   in[r*cols + c - 1], 0 in the first column (what torch.cumsum(x, -1) - x rounds).
//
// References: row_cumsum-common.cuh's row_scan_reference with the variant's RowScan (one thread per row walks
// its row, the reverse one from its end, the running sum or product in double, each output rounded once).
//
// The vendor baselines (CUB) are in row_scan_variants-cub.cuh.
#pragma once
#include <cstdint>

#include "row_cumsum-common.cuh"
