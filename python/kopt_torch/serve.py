"""The reference process (docs/pytorch.md, "Reference process protocol", version 1).

``python -m kopt_torch serve TASK_DIR [--device cuda|cpu]`` reads ``TASK_DIR/torch_abi.json``, then
answers one JSON request per line on stdin with one JSON reply per line on stdout:

- ``hello``: protocol version, torch and CUDA versions, device, Python version;
- ``forward``: reads the trial's inputs (inputs, parameters, buffers in ABI order, packed raw
  little-endian elements), runs the module in FP32 with TF32 off, cuDNN deterministic, under
  ``torch.no_grad()`` (a BF16 task's inputs are BF16 values upcast to FP32; its outputs are rounded to BF16
  once at the end), checks the output shapes against the ABI and writes the outputs packed in ABI order;
- ``time``: times the module at the task's precision, eager or under ``torch.compile`` (mode
  ``default``), with kopt's protocol (`kopt_torch.timing`), on random inputs (uniform(-1, 1) for floating
  tensors, integer tensors from ``get_inputs()``); TF32 off;
- ``bye``: replies, then exits.

A bad request or an exception in the problem's code is an ``ok: false`` reply with a one-line
``error``; the process keeps serving. stdout carries protocol lines only: the file descriptor 1 is
redirected to stderr at start, so ``print()`` in the problem's code (and in anything it calls) goes to
the log.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, TextIO

import torch

from . import expr as kexpr
from .abi import ELEMENT_SIZE, load_abi
from .errors import ProblemError
from .problem import Problem, load_problem, one_line
from .timing import Tier, time_call

PROTOCOL = 1
_RAW_DTYPE = {"f32": torch.float32, "bf16": torch.int16, "i64": torch.int64, "i32": torch.int32, "u8": torch.uint8}
_OUT_DTYPE = {"f32": torch.float32, "bf16": torch.bfloat16, "i64": torch.int64, "i32": torch.int32,
              "u8": torch.uint8}


@dataclass
class Case:
    """One size case: the loaded problem, its models and the ABI's concrete shapes."""

    size: dict[str, int]
    problem: Problem
    shapes: list[tuple[int, ...]]
    model: torch.nn.Module | None = None
    timed: dict[str, Callable[..., Any]] = field(default_factory=dict)
    time_model: torch.nn.Module | None = None
    time_args: list[Any] | None = None
    bool_inputs: set[int] | None = None


class Server:
    """Answers protocol requests for one task folder."""

    def __init__(self, task_dir: str | Path, device: str = "cuda") -> None:
        self.task_dir = Path(task_dir)
        self.abi = load_abi(self.task_dir)
        self.device = torch.device(device)
        self.problem_path = self.task_dir / self.abi["problem"]
        if not self.problem_path.is_file():
            raise ProblemError(f"{self.problem_path}: missing (torch_abi.json names it as the problem)")
        self.precision = self.abi["precision"]
        self.tensors: list[dict[str, Any]] = self.abi["tensors"]
        self.cases: dict[tuple, Case] = {}
        self.flush_cache: dict[int, torch.Tensor] = {}

    # -- helpers

    def _size(self, req: Mapping[str, Any]) -> dict[str, int]:
        size = req.get("size")
        if not isinstance(size, dict):
            raise ProblemError("'size' must be an object mapping every size parameter to an integer")
        out = {}
        for p in self.abi["size_params"]:
            v = size.get(p)
            if isinstance(v, bool) or not isinstance(v, int):
                raise ProblemError(f"size.{p} is missing or not an integer")
            out[p] = v
        return out  # other keys (a task's variables) are not the ABI's business

    def _case(self, size: dict[str, int]) -> Case:
        key = tuple(size[p] for p in self.abi["size_params"])
        case = self.cases.get(key)
        if case is None:
            overrides = {p: v for p, v in size.items() if p in self.abi["constants"]}
            problem = load_problem(self.problem_path, overrides)
            shapes = [tuple(kexpr.evaluate(d, size) for d in t["shape"]) for t in self.tensors]
            case = Case(size=dict(size), problem=problem, shapes=shapes)
            self.cases[key] = case
        return case

    def _model(self, case: Case) -> torch.nn.Module:
        if case.model is None:
            torch.manual_seed(0)
            case.model = case.problem.make_model(self.device).float()
        return case.model

    def _fixed(self, args: list[Any]) -> None:
        for f in self.abi["fixed_inputs"]:
            args[f["index"]] = f["value"]

    def _n_args(self) -> int:
        idx = [t["index"] for t in self.tensors if t["kind"] == "input"] + [f["index"] for f in self.abi["fixed_inputs"]]
        return max(idx) + 1 if idx else 0

    @staticmethod
    def _flags(deterministic: bool) -> None:
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cudnn.deterministic = deterministic
        torch.backends.cudnn.benchmark = False

    def _sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    # -- ops

    def hello(self, req: Mapping[str, Any]) -> dict[str, Any]:
        if self.device.type == "cuda":
            dev = f"{self.device} {torch.cuda.get_device_name(self.device)}"
        else:
            dev = "cpu"
        return {"protocol": PROTOCOL, "torch": torch.__version__, "cuda": torch.version.cuda, "device": dev,
                "python": platform.python_version(), "runtime_dirs": runtime_dirs()}

    def forward(self, req: Mapping[str, Any]) -> dict[str, Any]:
        size = self._size(req)
        inputs_path, outputs_path = req.get("inputs"), req.get("outputs")
        if not isinstance(inputs_path, str) or not isinstance(outputs_path, str):
            raise ProblemError("forward needs 'inputs' and 'outputs' (file paths)")
        case = self._case(size)
        ins = [(t, s) for t, s in zip(self.tensors, case.shapes) if t["kind"] != "output"]
        expected = sum(math.prod(s) * ELEMENT_SIZE[t["dtype"]] for t, s in ins)
        # Read once into one buffer the inputs' tensors view (no copy per tensor: a KernelBench convolution's
        # inputs are half a gigabyte a trial).
        data = bytearray(expected)
        try:
            with open(inputs_path, "rb") as f:
                got = f.readinto(data)
                extra = len(f.read(1))
        except OSError as e:
            raise ProblemError(f"inputs file {inputs_path}: cannot read ({e.strerror or e})") from None
        if got != expected or extra:
            have = f"{got} bytes" if not extra else f"more than {expected} bytes"
            raise ProblemError(f"inputs file {inputs_path} has {have}; expected {expected} for size "
                               + ", ".join(f"{k}={v}" for k, v in size.items()))
        view = memoryview(data)
        model = self._model(case)
        args: list[Any] = [None] * self._n_args()
        self._fixed(args)
        off = 0
        with torch.no_grad():
            for t, shape in ins:
                n = math.prod(shape) * ELEMENT_SIZE[t["dtype"]]
                raw = torch.frombuffer(view[off:off + n], dtype=_RAW_DTYPE[t["dtype"]]) if n else \
                    torch.empty(0, dtype=_RAW_DTYPE[t["dtype"]])
                off += n
                if t["dtype"] == "bf16":
                    raw = raw.view(torch.bfloat16)
                x = raw.reshape(shape).to(self.device)
                if x.is_floating_point():
                    x = x.float()
                if t["kind"] == "input":
                    if t["dtype"] == "u8" and _is_bool_input(case, t):
                        x = x != 0
                    args[t["index"]] = x
                else:
                    try:
                        target = model.get_parameter(t["key"]) if t["kind"] == "parameter" else model.get_buffer(t["key"])
                    except AttributeError:
                        raise ProblemError(f"the module has no {t['kind']} '{t['key']}' (torch_abi.json)") from None
                    if tuple(target.shape) != tuple(shape):
                        raise ProblemError(f"{t['kind']} '{t['key']}' has shape {list(target.shape)}; the ABI gives "
                                           f"{list(shape)}")
                    target.copy_(x)
            self._flags(deterministic=True)
            t0 = time.perf_counter()
            try:
                out = model(*args)
                self._sync()
            except Exception as e:
                raise ProblemError(f"Model.forward raised {one_line(e)}") from None
            forward_ms = (time.perf_counter() - t0) * 1e3
        outs = out if isinstance(out, (tuple, list)) else [out]
        abi_outs = [(t, s) for t, s in zip(self.tensors, case.shapes) if t["kind"] == "output"]
        if len(outs) != len(abi_outs) or not all(isinstance(o, torch.Tensor) for o in outs):
            raise ProblemError(f"Model.forward returned {len(outs)} values; the ABI has {len(abi_outs)} output tensors")
        chunks: list[Any] = []  # each output's bytes as an array the file is written from (no copy into bytes)
        for (t, shape), o in zip(abi_outs, outs):
            o = outs[t["index"]]
            if tuple(o.shape) != tuple(shape):
                raise ProblemError(f"output {t['name']} has shape {list(o.shape)}; the ABI gives {list(shape)} at "
                                   + ", ".join(f"{k}={v}" for k, v in size.items()))
            want = _OUT_DTYPE[t["dtype"]]
            if o.is_floating_point() != want.is_floating_point:
                raise ProblemError(f"output {t['name']} is {str(o.dtype).replace('torch.', '')}; the ABI gives "
                                   f"{t['dtype']}")
            o = o.detach().to(want).contiguous().cpu()
            chunks.append(o.reshape(-1).view(torch.uint8).numpy())
        with open(outputs_path, "wb") as f:
            for c in chunks:
                f.write(memoryview(c))
        return {"forward_ms": forward_ms, "output_bytes": [int(c.nbytes) for c in chunks]}

    def time(self, req: Mapping[str, Any]) -> dict[str, Any]:
        size = self._size(req)
        mode = req.get("mode")
        if mode not in ("eager", "compile"):
            raise ProblemError(f"time: mode {mode!r}; expected 'eager' or 'compile'")
        compile_mode = req.get("compile_mode", "default")
        if mode == "compile" and compile_mode != "default":
            raise ProblemError(f"time: compile_mode {compile_mode!r}; expected 'default'")
        tier = Tier.from_request(req.get("tier"))
        case = self._case(size)
        dtype = torch.float32 if self.precision == "fp32" else torch.bfloat16
        if case.time_model is None:
            torch.manual_seed(0)
            case.time_model = case.problem.make_model(self.device).to(dtype)
            case.timed.clear()
        if case.time_args is None:
            with torch.device(self.device):
                got = case.problem.inputs()
            args: list[Any] = [None] * self._n_args()
            self._fixed(args)
            for t in self.tensors:
                if t["kind"] != "input":
                    continue
                x = got[t["index"]]
                if not isinstance(x, torch.Tensor):
                    raise ProblemError(f"get_inputs()[{t['index']}] is not a tensor (the ABI says {t['name']})")
                x = x.to(self.device)
                if x.is_floating_point():
                    x = torch.empty(x.shape, dtype=dtype, device=self.device).uniform_(-1.0, 1.0)
                args[t["index"]] = x
            case.time_args = args
        fn = case.timed.get(mode)
        if fn is None:
            fn = case.time_model if mode == "eager" else torch.compile(case.time_model, mode=None)
            case.timed[mode] = fn
        args = case.time_args
        self._flags(deterministic=False)

        def call() -> Any:
            return fn(*args)

        try:
            with torch.no_grad():
                samples, first, warmup_ms = time_call(call, tier, self.device)
        except ProblemError:
            raise
        except Exception as e:
            raise ProblemError(f"timing ({mode}) raised {one_line(e)}") from None
        return {"samples_us": samples, "first_call_s": first, "warmup_ms": warmup_ms}

    def handle(self, req: Any) -> dict[str, Any]:
        """One request -> one reply (never raises)."""
        rid = req.get("id") if isinstance(req, dict) else None
        try:
            if not isinstance(req, dict):
                raise ProblemError("a request must be a JSON object with 'id' and 'op'")
            if "id" not in req:
                raise ProblemError("request has no 'id'")
            op = req.get("op")
            handler = {"hello": self.hello, "forward": self.forward, "time": self.time,
                       "bye": lambda r: {}}.get(op) if isinstance(op, str) else None
            if handler is None:
                raise ProblemError(f"unknown op {op!r}; expected hello, forward, time or bye")
            reply = handler(req)
            return {"id": rid, "ok": True, **reply}
        except ProblemError as e:
            return {"id": rid, "ok": False, "error": str(e)}
        except torch.cuda.OutOfMemoryError as e:
            torch.cuda.empty_cache()
            return {"id": rid, "ok": False, "error": one_line(e)}
        except Exception as e:  # noqa: BLE001 - the problem's code may raise anything
            return {"id": rid, "ok": False, "error": one_line(e)}


def _is_bool_input(case: Case, t: Mapping[str, Any]) -> bool:
    """Whether the problem's own get_inputs() gives a bool tensor for this u8 input (cached per case)."""
    if case.bool_inputs is None:
        with torch.device("meta"):
            try:
                got = case.problem.inputs()
            except ProblemError:
                got = []
        case.bool_inputs = {i for i, v in enumerate(got) if isinstance(v, torch.Tensor) and v.dtype == torch.bool}
    return t["index"] in case.bool_inputs


def runtime_dirs() -> list[str]:
    """The folders of the reference's runtime that a candidate must not reach (PyTorch's package and its
    compiler's): kopt's worker refuses and reports any access beneath them (docs/pytorch.md)."""
    dirs = [os.path.dirname(os.path.realpath(torch.__file__))]
    try:
        import triton  # noqa: PLC0415 - optional: torch.compile's compiler, where installed
        dirs.append(os.path.dirname(os.path.realpath(triton.__file__)))
    except ImportError:
        pass
    return dirs


def serve(task_dir: str | Path, device: str = "cuda", stdin: TextIO | None = None,
          stdout: TextIO | None = None) -> int:
    """Run the request loop until `bye` or end of input; returns the exit status."""
    if stdout is None:
        # Keep the real stdout for protocol lines; everything else written to fd 1 goes to stderr.
        sys.stdout.flush()
        proto_fd = os.dup(1)
        os.dup2(2, 1)
        stdout = os.fdopen(proto_fd, "w", buffering=1, encoding="utf-8")
        sys.stdout = sys.stderr
    stdin = stdin or sys.stdin
    if not re.fullmatch(r"cpu|cuda(:[0-9]+)?", device):
        raise ProblemError(f"--device {device}: expected cuda, cuda:N or cpu")
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ProblemError(f"--device {device}: CUDA is not available to this Python's torch; use --device cpu")
    server = Server(task_dir, device)
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as e:
            req = None
            reply = {"id": None, "ok": False, "error": f"request is not valid JSON ({e.msg})"}
        else:
            reply = server.handle(req)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if isinstance(req, dict) and req.get("op") == "bye" and reply.get("ok"):
            break
    return 0
