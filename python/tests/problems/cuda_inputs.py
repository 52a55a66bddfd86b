"""A problem that asks for the GPU itself: inputs made with device="cuda" in half precision, a parameter
moved with .cuda() and a buffer with .to("cuda") in the constructor (test input for kopt's importer,
written for kopt; KernelBench's attention problem makes its inputs this way)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    """Scales the product of two inputs by a learned vector and adds a buffer."""

    def __init__(self, features: int):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(features)).cuda()
        self.register_buffer("shift", torch.zeros(features).to("cuda"))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a * b * self.scale + self.shift


batch = 64
features = 48


def get_inputs():
    a = torch.rand(batch, features, device="cuda", dtype=torch.float16)
    b = torch.randn(batch, features, device=torch.device("cuda:0"), dtype=torch.float16)
    return [a, b]


def get_init_inputs():
    return [features]
