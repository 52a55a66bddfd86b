// Cross-entropy over 1000 classes, one thread per image: the row's maximum, the sum of exponentials
// relative to it and the loss in double, rounded once to float.
constexpr int kClasses = 1000;

__global__ void imagenet_loss_kernel(float* loss, const float* scores, const int* labels, int batch) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch) return;
  const float* row = scores + static_cast<long long>(i) * kClasses;
  double max_value = row[0];
  for (int c = 1; c < kClasses; ++c) max_value = fmax(max_value, static_cast<double>(row[c]));
  double sum = 0.0;
  for (int c = 0; c < kClasses; ++c) sum += exp(static_cast<double>(row[c]) - max_value);
  loss[i] = static_cast<float>(log(sum) + max_value - static_cast<double>(row[labels[i]]));
}

extern "C" void imagenet_loss(float* loss, const float* scores, const int* labels, int batch) {
  if (batch <= 0) return;
  imagenet_loss_kernel<<<(batch + 31) / 32, 32>>>(loss, scores, labels, batch);
}
