"""Level 1: nn.GroupNorm with its learned per-channel weight and bias."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Normalises each (sample, group of channels) by its mean and biased variance, then scales each channel."""

    def __init__(self, num_groups: int, num_channels: int):
        super().__init__()
        self.norm = nn.GroupNorm(num_groups, num_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


batch_size = 16
num_groups = 32
num_channels = 256
height = 64
width = 64


def get_inputs():
    x = torch.rand(batch_size, num_channels, height, width)
    return [x]


def get_init_inputs():
    return [num_groups, num_channels]
