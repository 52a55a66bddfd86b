import torch
import torch.nn as nn


class Model(nn.Module):
    """A convolution with ReLU, a max pooling, then the mean of every plane: three families whose intermediates are
    no tensor of the launcher (the convolution's and the pooling's outputs)."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = self.pool(x)
        return torch.mean(x, dim=(2, 3))


batch_size = 4
in_channels = 3
out_channels = 8
height = 34
width = 40
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
