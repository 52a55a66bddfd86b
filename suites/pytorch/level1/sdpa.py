"""Level 1: scaled dot-product attention, not causal."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Computes softmax(Q K^T / sqrt(head_dim)) V per (batch, head), every query sees every key."""

    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return F.scaled_dot_product_attention(q, k, v, is_causal=False)


batch_size = 16
num_heads = 16
seq_len = 1024
head_dim = 64


def get_inputs():
    q = torch.rand(batch_size, num_heads, seq_len, head_dim)
    k = torch.rand(batch_size, num_heads, seq_len, head_dim)
    v = torch.rand(batch_size, num_heads, seq_len, head_dim)
    return [q, k, v]


def get_init_inputs():
    return []
