"""Level 1: a 2D convolution, 3x3 kernel, stride 2, no padding (downsampling)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies nn.Conv2d(in_channels, out_channels, kernel_size, stride), with bias, no padding."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 16
in_channels = 64
out_channels = 128
height = 128
width = 128
kernel_size = 3
stride = 2


def get_inputs():
    x = torch.rand(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride]
