import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d with stride 2 and padding 1, then a bias-free BatchNorm-free tanh."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=2, padding=1)

    def forward(self, x):
        return torch.tanh(self.conv(x))


batch_size = 4
in_channels = 3
out_channels = 16
kernel_size = 3
height = 64
width = 48


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
