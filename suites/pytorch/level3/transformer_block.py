"""Level 3: a pre-norm transformer encoder block, attention and MLP written out."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Computes x + attn(ln1(x)), then + mlp(ln2(x)): multi-head SDPA self-attention, GELU MLP."""

    def __init__(self, embed_dim: int, num_heads: int, mlp_dim: int):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.ln1 = nn.LayerNorm(embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.ln2 = nn.LayerNorm(embed_dim)
        self.fc1 = nn.Linear(embed_dim, mlp_dim)
        self.fc2 = nn.Linear(mlp_dim, embed_dim)

    def _heads(self, t: torch.Tensor) -> torch.Tensor:
        """(batch, seq, embed) -> (batch, heads, seq, head_dim)."""
        b, s, _ = t.shape
        return t.view(b, s, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, _ = x.shape
        h = self.ln1(x)
        q = self._heads(self.q_proj(h))
        k = self._heads(self.k_proj(h))
        v = self._heads(self.v_proj(h))
        a = F.scaled_dot_product_attention(q, k, v)
        a = a.transpose(1, 2).reshape(b, s, self.embed_dim)
        x = x + self.out_proj(a)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


batch_size = 4
seq_len = 1024
embed_dim = 1024
num_heads = 16
mlp_dim = 4096


def get_inputs():
    x = torch.rand(batch_size, seq_len, embed_dim)
    return [x]


def get_init_inputs():
    return [embed_dim, num_heads, mlp_dim]
