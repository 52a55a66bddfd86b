import torch
import torch.nn as nn


class Model(nn.Module):
    """log(x) + y."""

    def forward(self, x, y):
        return torch.log(x) + y


batch_size = 128
dim = 300


def get_inputs():
    return [torch.rand(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
