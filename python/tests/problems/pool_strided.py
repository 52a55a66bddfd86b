import torch
import torch.nn as nn


class Model(nn.Module):
    """Max pooling with the window, stride and padding as module constants."""

    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.pool(x)


batch_size = 8
channels = 16
height = 64
width = 64
kernel_size = 3
stride = 2
padding = 1


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [kernel_size, stride, padding]
