"""Level 3: a ResNet basic block (two 3x3 convolutions with batch norm and an identity shortcut)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Computes relu(bn2(conv2(relu(bn1(conv1(x))))) + x), batch norm in training mode."""

    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        padding = kernel_size // 2
        self.conv1 = nn.Conv2d(channels, channels, kernel_size, padding=padding, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size, padding=padding, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + x)


batch_size = 16
channels = 64
height = 56
width = 56
kernel_size = 3


def get_inputs():
    x = torch.rand(batch_size, channels, height, width)
    return [x]


def get_init_inputs():
    return [channels, kernel_size]
