"""Level 2: a 2D convolution, ReLU, then a per-channel bias add."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes relu(conv2d(x)) + bias, bias of shape (out_channels, 1, 1)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x)) + self.bias


batch_size = 16
in_channels = 32
out_channels = 64
height = 128
width = 128
kernel_size = 3


def get_inputs():
    x = torch.rand(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
