"""Level 2: a SwiGLU MLP, down(silu(gate(x)) * up(x)), as in LLaMA-style transformers."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Computes down_proj(silu(gate_proj(x)) * up_proj(x)) with three bias-free Linear layers."""

    def __init__(self, hidden_size: int, intermediate_size: int):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


num_tokens = 1024
hidden_size = 2048
intermediate_size = 8192


def get_inputs():
    x = torch.rand(num_tokens, hidden_size)
    return [x]


def get_init_inputs():
    return [hidden_size, intermediate_size]
