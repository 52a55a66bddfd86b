// Host side, for launcher-mode templates (spliced in by `// kopt:include ../common/multiprocessors.cuh`):
// the current device's SM count, asked once; 132 (an H100/H200) if the runtime cannot say.
int multiprocessors() {
  static int count = 0;
  if (count <= 0) {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || count <= 0)
      count = 132;
  }
  return count;
}
