import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A linear layer, GELU, then a softmax over the features: two families, linear then row_softmax."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = self.linear(x)
        x = F.gelu(x)
        return torch.softmax(x, dim=1)


batch_size = 64
in_features = 128
out_features = 96


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
