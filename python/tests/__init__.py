"""Tests of the kopt_torch package (unittest; CPU only unless marked)."""
