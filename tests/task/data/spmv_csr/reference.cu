extern "C" __host__ void spmv(float* y, const int* row_ptr, const int* col_idx, const float* vals,
                              const float* x, int M, int N, int NNZ) {}
