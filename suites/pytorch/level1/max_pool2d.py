"""Level 1: 2D max pooling over non-overlapping windows."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies nn.MaxPool2d(kernel_size, stride) to an NCHW tensor."""

    def __init__(self, kernel_size: int, stride: int):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 16
channels = 64
height = 128
width = 128
kernel_size = 2
stride = 2


def get_inputs():
    x = torch.rand(batch_size, channels, height, width)
    return [x]


def get_init_inputs():
    return [kernel_size, stride]
