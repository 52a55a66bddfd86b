"""Level 2: a 2D convolution, BatchNorm2d in training mode (batch statistics), then ReLU."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes relu(batch_norm(conv2d(x))), the norm using the batch's own mean and variance."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, padding: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.bn(self.conv(x)))


batch_size = 16
in_channels = 64
out_channels = 64
height = 128
width = 128
kernel_size = 3
padding = 1


def get_inputs():
    x = torch.rand(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, padding]
