import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer then a softmax, with a parameter the forward never reads (KernelBench's
    26_ConvTranspose3d_Add_HardSwish has one): no stage would read it, so no chain is written."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.unused = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return torch.softmax(self.linear(x), dim=1)


batch_size = 16
in_features = 32
out_features = 24


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
