"""Timing a callable with kopt's protocol (docs/timing.md, "The protocol, as the worker runs it").

`time_call(call, tier, device)`:

1. the first call is timed on the wall clock, compilation included (`first_call_s`);
2. warm-up: more calls until at least `warmup_calls` calls (the first included) and `warmup_ms` of
   wall time since the first call ended;
3. samples: before each one a uint8 tensor of `flush_bytes` is zeroed on the current stream (the L2
   flush), then one call is bracketed by CUDA events; sampling stops when there are at least
   `min_samples` samples summing to at least `min_sample_ms`, or when `budget_ms` of wall time (counted
   from the first sample) is spent with at least one sample.

On the CPU (tests only) samples are taken with `time.perf_counter` and there is no flush.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import torch

from .errors import ProblemError

MAX_SAMPLES = 100_000


@dataclass
class Tier:
    """The timing policy fields of a `time` request."""

    warmup_ms: float
    warmup_calls: int
    min_samples: int
    min_sample_ms: float
    budget_ms: float
    flush_bytes: int

    @staticmethod
    def from_request(tier: Any) -> "Tier":
        """Validate the `tier` object of a request (every field required, numbers >= 0)."""
        if not isinstance(tier, Mapping):
            raise ProblemError("time: 'tier' must be an object with warmup_ms, warmup_calls, min_samples, "
                               "min_sample_ms, budget_ms, flush_bytes")
        values = {}
        for name, kind in (("warmup_ms", float), ("warmup_calls", int), ("min_samples", int),
                           ("min_sample_ms", float), ("budget_ms", float), ("flush_bytes", int)):
            if name not in tier:
                raise ProblemError(f"time: tier.{name} is missing")
            v = tier[name]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or (kind is int and v != int(v)):
                raise ProblemError(f"time: tier.{name} = {v!r}; expected a number >= 0"
                                   + (" (an integer)" if kind is int else ""))
            values[name] = kind(v)
        return Tier(**values)


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_call(call: Callable[[], Any], tier: Tier, device: torch.device) -> tuple[list[float], float, float]:
    """Run the protocol; returns (samples in microseconds, first call in seconds, warm-up wall ms)."""
    t0 = time.perf_counter()
    call()
    _sync(device)
    first_call_s = time.perf_counter() - t0
    calls = 1
    w0 = time.perf_counter()
    while calls < max(1, tier.warmup_calls) or (time.perf_counter() - w0) * 1e3 < tier.warmup_ms:
        call()
        _sync(device)
        calls += 1
    warmup_ms = (time.perf_counter() - w0) * 1e3
    samples: list[float] = []
    total_ms = 0.0
    cuda = device.type == "cuda"
    flush = torch.empty(tier.flush_bytes, dtype=torch.uint8, device=device) if cuda and tier.flush_bytes else None
    start = torch.cuda.Event(enable_timing=True) if cuda else None
    stop = torch.cuda.Event(enable_timing=True) if cuda else None
    s0 = time.perf_counter()
    while True:
        if cuda:
            if flush is not None:
                flush.zero_()
            start.record()  # type: ignore[union-attr]
            call()
            stop.record()  # type: ignore[union-attr]
            stop.synchronize()  # type: ignore[union-attr]
            ms = start.elapsed_time(stop)  # type: ignore[union-attr]
        else:
            t = time.perf_counter()
            call()
            ms = (time.perf_counter() - t) * 1e3
        samples.append(ms * 1e3)
        total_ms += ms
        if len(samples) >= tier.min_samples and total_ms >= tier.min_sample_ms:
            break
        if (time.perf_counter() - s0) * 1e3 >= tier.budget_ms or len(samples) >= MAX_SAMPLES:
            break
    del flush
    return samples, first_call_s, warmup_ms
