"""Level 2: a 2D convolution, 2D max pooling, then a sigmoid."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes sigmoid(max_pool2d(conv2d(x))), pooling windows pool_size x pool_size."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.pool = nn.MaxPool2d(pool_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.pool(self.conv(x)))


batch_size = 16
in_channels = 32
out_channels = 64
height = 128
width = 128
kernel_size = 3
pool_size = 2


def get_inputs():
    x = torch.rand(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, pool_size]
