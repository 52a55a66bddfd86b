// One thread per batch entry (512 of them) scans its costs in order (the first minimum wins).
constexpr int kBatch = 512;

__global__ void cheapest_route_kernel(int* choice, const float* cost, int n_routes) {
  int const b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= kBatch) return;
  const float* row = cost + static_cast<long long>(b) * n_routes;
  int best = 0;
  for (int c = 1; c < n_routes; ++c) {
    if (row[c] < row[best]) best = c;
  }
  choice[b] = best;
}

extern "C" void cheapest_route(int* choice, const float* cost, int n_routes) {
  cheapest_route_kernel<<<kBatch / 128, 128>>>(choice, cost, n_routes);
}
