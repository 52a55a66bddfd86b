"""A linear layer whose width comes from a list, not a size constant, so that every size case keeps its
2^31 weights (8 GiB in FP32; 2^29 in the small case), as KernelBench's level3/2_ShallowWideMLP's 2^31 (test input for kopt's
importer, written for kopt)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    """One wide linear layer."""

    def __init__(self, input_size, widths):
        super().__init__()
        self.layer = nn.Linear(input_size, widths[0])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layer(x)


batch_size = 4
input_size = 16384
widths = [131072]


def get_inputs():
    return [torch.rand(batch_size, input_size)]


def get_init_inputs():
    return [input_size, widths]
