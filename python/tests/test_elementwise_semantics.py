"""The C++ expressions family inference writes (kopt_torch.elementwise, kopt_torch.losses) compute what the
module computes: each op is compiled into a small host program with the system's C++ compiler, run over inputs of
both signs, and compared with the module's own output in FP32 (a loss's `finish` of the sum of its `map`). A wrong
precedence, a lost parenthesis or a swapped operand fails here, on the CPU, before any kernel is built from it."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import unittest
import warnings
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

from kopt_torch.family import infer_family
from tests.test_family import _Call, _Call2, _LinearThen

CXX = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")

# Device functions the ops may call that a host compiler lacks.
_PRELUDE = """#include <cmath>
#include <cstdio>
static inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
"""


MODULES = [
    _Call(lambda x: torch.where(x > 0, x, 0.2 * x)),
    _Call(lambda x: F.hardtanh(x, min_val=-0.5, max_val=0.5)),
    _Call(lambda x: torch.relu(x) * 2.0 - 1.0),
    _Call(lambda x: x * torch.sigmoid(x)),
    _Call(lambda x: -x.pow(2) + 1.0),
    _Call(lambda x: 1.0 / (1.0 + torch.exp(-x))),
    _Call(lambda x: (x > 0) * x + (x <= 0) * 0.5 * x),
    _Call(lambda x: torch.clamp(x * 3.0, min=-1.0, max=2.0) / 4.0),
    _Call(lambda x: F.leaky_relu(x - 0.25, 0.1)),
    _Call(lambda x: torch.tanh(x) * torch.tanh(x)),
    _Call(lambda x: F.gelu(x * 0.5, approximate="tanh") + x),
    _Call(lambda x: 2.0 - x / 3.0),
    _Call(lambda x: F.hardswish(x) + F.relu6(x * 4.0)),
    _Call(lambda x: torch.abs(x).sqrt()),
    # Activations with constants of their own (kopt_torch.activations), and rounding and special functions.
    _Call(lambda x: F.elu(x, alpha=0.7)),
    _Call(lambda x: F.celu(x, 1.5)),
    _Call(lambda x: torch.selu(x)),
    _Call(lambda x: F.softplus(x, beta=2.0, threshold=3.0)),
    _Call(lambda x: F.softsign(x) + F.mish(x)),
    _Call(lambda x: F.logsigmoid(x * 4.0)),
    _Call(lambda x: F.hardshrink(x, 0.8) + F.softshrink(x, lambd=0.3)),
    _Call(lambda x: F.tanhshrink(x) - F.threshold(x, 0.5, -2.0)),
    _Call(lambda x: torch.erf(x) + torch.expm1(x) + torch.log1p(torch.abs(x))),
    _Call(lambda x: torch.floor(x * 2.0) + torch.ceil(x) + torch.trunc(x) + torch.round(x * 3.0)),
    nn.Sequential(nn.ELU(0.5), nn.SELU(), nn.Softplus(beta=0.5, threshold=10.0), nn.Mish(), nn.LogSigmoid(),
                  nn.Hardshrink(0.2), nn.Softshrink(0.4), nn.Tanhshrink(), nn.Threshold(0.1, 20.0), nn.Softsign(),
                  nn.CELU(2.0)),
]
EPILOGUES = [
    _LinearThen(lambda y: y * torch.sigmoid(y)),
    _LinearThen(lambda y: torch.sigmoid(y / 4.0) - 0.5),
    _LinearThen(lambda y: 1.0 - F.gelu(y) * 2.0),
]
# Scalar losses of two inputs (the loss family's map and finish).
LOSSES = [
    _Call2(lambda p, t: torch.mean((p - t) ** 2)),  # the mean squared error written out
    _Call2(lambda p, t: torch.mean(torch.clamp(1 - p * t, min=0))),  # hinge
    _Call2(lambda p, t: (p - t).abs().sum()),  # l1, summed
    nn.SmoothL1Loss(beta=0.5),
    nn.SmoothL1Loss(),
    _Call2(lambda p, t: F.smooth_l1_loss(t, p, beta=0.5, reduction="sum")),
    _Call2(F.smooth_l1_loss),
    nn.HuberLoss(delta=2.0),
    _Call2(lambda p, t: F.huber_loss(p, t, delta=2.0, reduction="sum")),
    nn.MSELoss(reduction="sum"),
    _Call2(F.l1_loss),
]


@unittest.skipIf(CXX is None, "no C++ compiler here")
def _host_output(test: unittest.TestCase, name: str, program: str) -> str:
    """What the C++ `program` prints, compiled for the host (the test fails if it does not compile)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / f"{name}.cpp", Path(tmp) / name
        src.write_text(program)
        built = subprocess.run([CXX, "-std=c++17", "-O0", "-o", str(exe), str(src)], capture_output=True, text=True)
        test.assertEqual(built.returncode, 0, built.stderr + program)
        return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


class ElementwiseSemanticsTest(unittest.TestCase):
    def _run(self, ops: list[tuple[str, str]], values: torch.Tensor) -> list[list[float]]:
        """Each (op, variable) over `values`, computed by a compiled host program."""
        funcs = "".join(f"static float f{i}(float {name}) {{ return {op}; }}\n" for i, (op, name) in enumerate(ops))
        table = ", ".join(f"f{i}" for i in range(len(ops)))
        data = ", ".join(f"{float(v)!r}f" for v in values.tolist())
        program = _PRELUDE + funcs + f"""
static float (*const kOps[])(float) = {{{table}}};
static const float kValues[] = {{{data}}};
int main() {{
  for (auto op : kOps) {{
    for (float v : kValues) std::printf("%.9g ", op(v));
    std::printf("\\n");
  }}
}}
"""
        out = _host_output(self, "ops", program)
        return [[float(v) for v in line.split()] for line in out.splitlines()]

    def test_activation_ops_compute_what_the_module_computes(self) -> None:
        x = torch.linspace(-3.0, 3.0, 61)
        guesses = [infer_family(m, [x.reshape(1, -1)]) for m in MODULES]
        for m, g in zip(MODULES, guesses):
            self.assertIsNotNone(g, m)
            self.assertEqual(g.family, "activation")
        results = self._run([(g.params["op"], "x") for g in guesses], x)
        for m, g, got in zip(MODULES, guesses, results):
            with self.subTest(op=g.params["op"]):
                want = m(x.reshape(1, -1)).reshape(-1).float()
                torch.testing.assert_close(torch.tensor(got), want, rtol=1e-5, atol=1e-6)

    def test_epilogue_ops_compute_what_follows_the_layer(self) -> None:
        v = torch.linspace(-4.0, 4.0, 41)
        x = [torch.randn(2, 8)]
        guesses = [infer_family(m, x) for m in EPILOGUES]
        results = self._run([(g.params["op"], "v") for g in guesses], v)
        for m, g, got in zip(EPILOGUES, guesses, results):
            with self.subTest(op=g.params["op"]):
                self.assertEqual(g.family, "linear")
                torch.testing.assert_close(torch.tensor(got), m.fn(v).float(), rtol=1e-5, atol=1e-6)


@unittest.skipIf(CXX is None, "no C++ compiler here")
class LossSemanticsTest(unittest.TestCase):
    def test_loss_maps_and_finishes_compute_what_the_module_computes(self) -> None:
        # Both signs, differences from 0 to about 5: both branches of smooth_l1 (beta 0.5, 1) and huber (delta 2).
        x = torch.linspace(-3.0, 3.0, 63).reshape(7, 9)
        signs = torch.tensor([1.0, -1.0]).repeat(32)[:63]
        y = (torch.linspace(2.5, -2.0, 63) * signs).reshape(7, 9)
        guesses = [infer_family(m, [x, y]) for m in LOSSES]
        for m, g in zip(LOSSES, guesses):
            self.assertIsNotNone(g, m)
            self.assertEqual(g.family, "loss")
        funcs = "".join(f"static float m{i}(float x, float y) {{ return {g.params['map']}; }}\n"
                        f"static float f{i}(float s, float n) {{ return {g.params['finish']}; }}\n"
                        for i, g in enumerate(guesses))
        table = ", ".join(f"{{m{i}, f{i}}}" for i in range(len(guesses)))
        xs = ", ".join(f"{float(v)!r}f" for v in x.reshape(-1).tolist())
        ys = ", ".join(f"{float(v)!r}f" for v in y.reshape(-1).tolist())
        program = _PRELUDE + funcs + f"""
struct Loss {{ float (*map)(float, float); float (*finish)(float, float); }};
static const Loss kLosses[] = {{{table}}};
static const float kX[] = {{{xs}}};
static const float kY[] = {{{ys}}};
int main() {{
  int const n = sizeof(kX) / sizeof(kX[0]);
  for (auto loss : kLosses) {{
    double sum = 0.0;  // the exact sum, rounded once to FP32 as the library's strategies round it
    for (int i = 0; i < n; ++i) sum += loss.map(kX[i], kY[i]);
    std::printf("%.9g\\n", loss.finish(static_cast<float>(sum), static_cast<float>(n)));
  }}
}}
"""
        out = _host_output(self, "losses", program)
        results = [float(v) for v in out.split()]
        self.assertEqual(len(results), len(LOSSES))
        for m, g, got in zip(LOSSES, guesses, results):
            with self.subTest(map=g.params["map"], finish=g.params["finish"]):
                want = m(x, y).float()
                torch.testing.assert_close(torch.tensor(got), want, rtol=1e-5, atol=0.0)

    def test_row_loss_maps_and_finishes_compute_what_the_module_computes(self) -> None:
        # KL divergence (loss with reduction mean or sum, loss_rows with batchmean) of probabilities, zeros among
        # the targets (0 log 0 is 0), and a hinge loss whose targets broadcast along the rows (loss_rows_broadcast).
        gen = torch.Generator().manual_seed(7)
        p = torch.rand(6, 5, 3, generator=gen) * 0.9 + 0.05
        t = torch.rand(6, 5, 3, generator=gen)
        t[t < 0.2] = 0.0
        log_t = torch.log(torch.rand(6, 5, 3, generator=gen) * 0.9 + 0.05)
        x2 = torch.linspace(-3.0, 3.0, 63).reshape(7, 9)
        v = torch.tensor([1.0, -1.0, 0.5, -0.25, 1.0, -1.0, 2.0, -1.5, 1.0])
        cases = [
            (_Call2(lambda a, b: F.kl_div(torch.log(a), b, reduction="batchmean")), [p, t], "loss_rows"),
            (_Call2(lambda a, b: F.kl_div(torch.log(a), b, reduction="batchmean")), [p[0], t[0]], "loss_rows"),
            (_Call2(lambda a, b: F.kl_div(torch.log(a), b, reduction="sum")), [p, t], "loss"),
            (_Call2(lambda a, b: F.kl_div(torch.log(a), b)), [p, t], "loss"),
            (_Call2(lambda b, a: F.kl_div(torch.log(a), b, reduction="batchmean")), [t, p], "loss_rows"),
            (_Call2(lambda a, b: F.kl_div(torch.log(a) - 0.5, b * 2.0, reduction="batchmean")), [p, t], "loss_rows"),
            (nn.KLDivLoss(reduction="batchmean", log_target=True), [torch.log(p), log_t], "loss_rows"),
            (_Call2(lambda a, b: torch.mean(torch.clamp(1 - a * b, min=0))), [x2, v], "loss_rows_broadcast"),
            (_Call2(lambda b, a: torch.mean(torch.clamp(1 - a * b, min=0))), [v, x2], "loss_rows_broadcast"),
            (_Call2(lambda a, b: ((a - b) ** 2).sum()), [p, t[0, :, :1].reshape(1, 5, 1)], None),
            (_Call2(lambda a, b: ((a - b) ** 2).sum()), [p, t[0]], "loss_rows_broadcast"),
            (_Call2(lambda a, b: torch.mean(torch.abs(a - b))), [p, t[0, 0]], "loss_rows_broadcast"),
        ]
        funcs, table, data, wants = [], [], [], []
        for i, (m, inputs, family) in enumerate(cases):
            g = infer_family(m, inputs)
            if family is None:
                self.assertIsNone(g, i)
                continue
            self.assertIsNotNone(g, i)
            self.assertEqual(g.family, family, i)
            b = g.binding
            xt, yt = inputs[b["x"][0]], inputs[b["y"][0]]
            if family == "loss":
                rows, cols = xt.numel(), 1
                finish = f"static float f{i}(float s, float rows, float cols) {{ float n = rows; (void)cols; " \
                         f"return {g.params['finish']}; }}\n"
            else:
                rows = int(torch.tensor([xt.shape[d] for d in b["rows"][1]]).prod())
                cols = int(torch.tensor([xt.shape[d] for d in b["cols"][1]]).prod())
                finish = f"static float f{i}(float s, float rows, float cols) {{ return {g.params['finish']}; }}\n"
            funcs.append(f"static float m{i}(float x, float y) {{ return {g.params['map']}; }}\n" + finish)
            xs = ", ".join(f"{float(e)!r}f" for e in xt.reshape(-1).tolist())
            ys = ", ".join(f"{float(e)!r}f" for e in yt.reshape(-1).tolist())
            data.append(f"static const float kX{i}[] = {{{xs}}};\nstatic const float kY{i}[] = {{{ys}}};\n")
            broadcast = 1 if family == "loss_rows_broadcast" else 0
            table.append(f"{{m{i}, f{i}, kX{i}, kY{i}, {rows}, {cols}, {broadcast}}}")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # kl_div's reduction "mean" warns that it is not batchmean
                wants.append((g, m(*inputs).float()))
        program = _PRELUDE + "".join(funcs) + "".join(data) + f"""
struct Loss {{ float (*map)(float, float); float (*finish)(float, float, float); const float* x; const float* y;
               int rows; int cols; int broadcast; }};
static const Loss kLosses[] = {{{", ".join(table)}}};
int main() {{
  for (auto loss : kLosses) {{
    double sum = 0.0;  // the exact sum, rounded once to FP32 as the library's strategies round it
    for (int i = 0; i < loss.rows * loss.cols; ++i)
      sum += loss.map(loss.x[i], loss.y[loss.broadcast ? i % loss.cols : i]);  // y[j] beside x[i][j]
    std::printf("%.9g\\n", loss.finish(static_cast<float>(sum), static_cast<float>(loss.rows),
                                          static_cast<float>(loss.cols)));
  }}
}}
"""
        out = _host_output(self, "row_losses", program)
        results = [float(e) for e in out.split()]
        self.assertEqual(len(results), len(wants))
        for (g, want), got in zip(wants, results):
            with self.subTest(family=g.family, map=g.params["map"], finish=g.params["finish"]):
                torch.testing.assert_close(torch.tensor(got), want, rtol=1e-5, atol=1e-6)



@unittest.skipIf(CXX is None, "no C++ compiler here")
class ReductionSemanticsTest(unittest.TestCase):
    """The value reductions' combine, identity and finish (row_reduce, col_reduce, mid_reduce) in the orders the
    library's strategies combine in: one thread's sequential walk from the identity, lanes taking every 32nd value
    then a shuffle tree, and a tree over a power of two padded with the identity (combine(identity, identity): a
    lane or a split piece with nothing to read)."""

    def test_reductions_in_every_order_compute_what_the_module_computes(self) -> None:
        rows = {"signed": torch.linspace(-3.0, 3.0, 61), "no zero": torch.linspace(-1.2, 1.3, 37),
                "large": torch.linspace(-3.0, 3.0, 61) * 300.0 + 200.0, "equal": torch.full((45,), 2.5),
                "long": torch.sin(torch.arange(4099, dtype=torch.float32)) * 4.0,
                "with NaN": torch.cat([torch.linspace(-2.0, 2.0, 40), torch.tensor([float("nan")]),
                                       torch.linspace(3.0, -1.0, 9)])}
        ops = {"sum": lambda x: torch.sum(x, dim=-1), "mean": lambda x: x.mean(-1),
               "amax": lambda x: torch.amax(x, dim=1), "amin": lambda x: x.min(dim=1).values,
               "prod": lambda x: torch.prod(x, dim=1), "logsumexp": lambda x: torch.logsumexp(x, dim=1),
               "logsumexp method, keepdim": lambda x: x.logsumexp(-1, keepdim=True)}
        cases = [(op, row) for op in ops for row in rows
                 if not (op == "prod" and row in ("signed", "large", "long"))  # their products overflow or are 0
                 and not (op in ("sum", "mean") and row in ("large", "long"))  # cancellation: not the combine's question
                 # a NaN carried through: the log-sum-exp's (torch gives NaN); amax/amin's fmaxf/fminf pass over it
                 # (docs/pytorch.md, "The reference's arithmetic"), the others carry it by arithmetic
                 and not (row == "with NaN" and op in ("amax", "amin"))]
        funcs, data, table, wants = [], [], [], []
        for i, (op, row) in enumerate(cases):
            g = infer_family(_Call(ops[op]), [rows[row].reshape(1, -1)])
            self.assertIsNotNone(g, op)
            self.assertEqual(g.family, "row_logsumexp" if op.startswith("logsumexp") else "row_reduce", op)
            p = g.params
            funcs.append(f"static float c{i}(float a, float b) {{ return {p['combine']}; }}\n"
                         f"static float f{i}(float s, float n) {{ (void)n; return {p['finish']}; }}\n")
            values = ", ".join("NAN" if e != e else f"{float(e)!r}f" for e in rows[row].tolist())
            data.append(f"static const float kV{i}[] = {{{values}}};\n")
            table.append(f"{{c{i}, f{i}, {p['identity']}, kV{i}, {rows[row].numel()}}}")
            wants.append(((op, row), ops[op](rows[row].reshape(1, -1).double()).reshape(()).float(),
                          float(rows[row].nan_to_num().abs().max())))
        program = _PRELUDE + "#include <vector>\n" + "".join(funcs) + "".join(data) + f"""
struct Reduction {{ float (*combine)(float, float); float (*finish)(float, float); float identity; const float* v;
                    int n; }};
static const Reduction kReductions[] = {{{", ".join(table)}}};
int main() {{
  for (auto r : kReductions) {{
    float serial = r.identity;
    for (int i = 0; i < r.n; ++i) serial = r.combine(serial, r.v[i]);
    float lanes[32];
    for (int l = 0; l < 32; ++l) {{
      lanes[l] = r.identity;
      for (int i = l; i < r.n; i += 32) lanes[l] = r.combine(lanes[l], r.v[i]);
    }}
    for (int offset = 16; offset > 0; offset >>= 1)
      for (int l = 0; l < offset; ++l) lanes[l] = r.combine(lanes[l], lanes[l + offset]);
    int width = 1;
    while (width < r.n + 3) width *= 2;  // at least three identities in the tree
    std::vector<float> tree(width, r.identity);
    for (int i = 0; i < r.n; ++i) tree[i] = r.v[i];
    for (; width > 1; width /= 2)
      for (int l = 0; l < width / 2; ++l) tree[l] = r.combine(tree[2 * l], tree[2 * l + 1]);
    float const n = static_cast<float>(r.n);
    std::printf("%.9g %.9g %.9g\\n", r.finish(serial, n), r.finish(lanes[0], n), r.finish(tree[0], n));
  }}
}}
"""
        out = _host_output(self, "reductions", program)
        lines = out.splitlines()
        self.assertEqual(len(lines), len(wants))
        # Relative to the result, and absolute to the largest value (a sum that cancels to 0). The log-add-exp's
        # serial walk of 4099 values is off by about 3e-6 relative (a rounding of the running value per step); the
        # lanes' and the tree's shorter chains by less.
        for ((op, row), want, largest), line in zip(wants, lines):
            for order, got in zip(("serial", "lanes", "tree"), line.split()):
                with self.subTest(op=op, row=row, order=order):
                    torch.testing.assert_close(torch.tensor(float(got)), want, rtol=1e-5, atol=2e-6 * largest,
                                               equal_nan=True)


if __name__ == "__main__":
    unittest.main()
