// Softmax over the classes of each pixel: one thread per (image, pixel) walks its column of classes three
// times (the maximum, the sum of exponentials, the outputs) in double.
__global__ void class_probs_kernel(const float* logits, float* probs, int images, int classes, int pixels) {
  long long const column = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (column >= static_cast<long long>(images) * pixels) return;
  long long const n = column / pixels;
  long long const p = column % pixels;
  const float* x = logits + n * classes * pixels + p;
  float* y = probs + n * classes * pixels + p;
  double m = x[0];
  for (int k = 1; k < classes; ++k) m = fmax(m, static_cast<double>(x[static_cast<long long>(k) * pixels]));
  double sum = 0.0;
  for (int k = 0; k < classes; ++k) sum += exp(x[static_cast<long long>(k) * pixels] - m);
  for (int k = 0; k < classes; ++k)
    y[static_cast<long long>(k) * pixels] =
        static_cast<float>(exp(x[static_cast<long long>(k) * pixels] - m) / sum);
}

extern "C" void class_probs(const float* logits, float* probs, int images, int classes, int pixels) {
  long long const columns = static_cast<long long>(images) * pixels;
  if (columns <= 0 || classes <= 0) return;
  class_probs_kernel<<<static_cast<unsigned>((columns + 127) / 128), 128>>>(logits, probs, images, classes,
                                                                            pixels);
}
