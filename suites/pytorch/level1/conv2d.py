"""Level 1: a 2D convolution, 3x3 kernel, stride 1, padding 1 (shape preserving)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding) with bias."""

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int
    ):
        super().__init__()
        self.conv = nn.Conv2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 16
in_channels = 64
out_channels = 64
height = 128
width = 128
kernel_size = 3
stride = 1
padding = 1


def get_inputs():
    x = torch.rand(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]
