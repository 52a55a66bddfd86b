"""Level 2: a 2D convolution, GroupNorm with an integer group count, then GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Computes gelu(group_norm(conv2d(x))) with num_groups groups of channels."""

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: int, padding: int, num_groups: int
    ):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding)
        self.norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.norm(self.conv(x)))


batch_size = 16
in_channels = 64
out_channels = 128
height = 64
width = 64
kernel_size = 3
padding = 1
num_groups = 8


def get_inputs():
    x = torch.rand(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, padding, num_groups]
