"""kopt_torch.serve: the reference process on --device cpu (in process, and one run over pipes)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

import torch

from kopt_torch.importer import import_problem
from kopt_torch.problem import load_problem
from kopt_torch.serve import Server

PROBLEMS = Path(__file__).parent / "problems"
PYTHON_DIR = Path(__file__).resolve().parents[1]
TIER = {"warmup_ms": 1, "warmup_calls": 2, "min_samples": 5, "min_sample_ms": 0, "budget_ms": 2000, "flush_bytes": 0}


def _pack(tensors: list[torch.Tensor]) -> bytes:
    return b"".join(t.contiguous().reshape(-1).view(torch.uint8).numpy().tobytes() for t in tensors)


class ServeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory()
        cls.tmp = Path(cls._tmp.name)
        cls.tasks = {}
        for stem, prec in (("linear_relu", "fp32"), ("two_outputs", "fp32"), ("embedding", "fp32"),
                           ("scale_number", "fp32"), ("linear_relu", "bf16")):
            out = cls.tmp / f"{stem}_{prec}"
            import_problem(PROBLEMS / f"{stem}.py", out, prec)
            cls.tasks[(stem, prec)] = out

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def _forward(self, server: Server, size: dict, ins: list[torch.Tensor]) -> tuple[dict, bytes]:
        inp, outp = self.tmp / "in.bin", self.tmp / "out.bin"
        inp.write_bytes(_pack(ins))
        reply = server.handle({"id": 7, "op": "forward", "size": size, "inputs": str(inp), "outputs": str(outp)})
        return reply, (outp.read_bytes() if reply.get("ok") else b"")

    def test_hello_and_unknown_op(self) -> None:
        s = Server(self.tasks[("linear_relu", "fp32")], "cpu")
        r = s.handle({"id": 1, "op": "hello"})
        self.assertEqual((r["id"], r["ok"], r["protocol"], r["device"]), (1, True, 1, "cpu"))
        self.assertEqual(r["torch"], torch.__version__)
        r = s.handle({"id": 2, "op": "frobnicate"})
        self.assertEqual((r["id"], r["ok"]), (2, False))
        self.assertIn("unknown op", r["error"])
        r = s.handle({"id": 3, "op": "forward"})
        self.assertFalse(r["ok"])
        self.assertIn("size", r["error"])

    def test_forward_is_the_module_bit_exact(self) -> None:
        s = Server(self.tasks[("linear_relu", "fp32")], "cpu")
        size = {"batch_size": 21, "in_features": 43, "out_features": 33}
        g = torch.Generator().manual_seed(1)
        x = torch.rand(21, 43, generator=g) * 2 - 1
        w = torch.randn(33, 43, generator=g)
        b = torch.randn(33, generator=g)
        reply, got = self._forward(s, size, [x, w, b])
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(reply["output_bytes"], [21 * 33 * 4])
        p = load_problem(PROBLEMS / "linear_relu.py", size)
        m = p.make_model()
        m.load_state_dict({"linear.weight": w, "linear.bias": b})
        with torch.no_grad():
            want = m(x)
        p.unload()
        self.assertEqual(got, _pack([want]))

    def test_forward_two_outputs_and_int64(self) -> None:
        s = Server(self.tasks[("two_outputs", "fp32")], "cpu")
        x = torch.randn(16, 64)
        reply, got = self._forward(s, {"rows": 16, "cols": 64}, [x])
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(got, _pack([torch.softmax(x, dim=1), x.amax(dim=1)]))
        s = Server(self.tasks[("embedding", "fp32")], "cpu")
        idx = torch.randint(0, 250, (128,))
        emb, nw, nb = torch.randn(250, 16), torch.rand(16) + 0.5, torch.rand(16) - 0.5
        reply, got = self._forward(s, {"batch_size": 128, "num_embeddings": 250, "dim": 16}, [idx, emb, nw, nb])
        self.assertTrue(reply["ok"], reply)
        want = torch.nn.functional.layer_norm(emb[idx], (16,), nw, nb)
        self.assertEqual(got, _pack([want]))

    def test_forward_fixed_number_input(self) -> None:
        s = Server(self.tasks[("scale_number", "fp32")], "cpu")
        x = torch.randn(341)
        reply, got = self._forward(s, {"N": 341}, [x])
        self.assertTrue(reply["ok"], reply)
        self.assertEqual(got, _pack([x * 0.5 + 2.0]))

    def test_forward_bf16_rounds_once(self) -> None:
        s = Server(self.tasks[("linear_relu", "bf16")], "cpu")
        size = {"batch_size": 16, "in_features": 32, "out_features": 24}
        x, w, b = (torch.randn(16, 32).bfloat16(), torch.randn(24, 32).bfloat16(), torch.randn(24).bfloat16())
        reply, got = self._forward(s, size, [x, w, b])
        self.assertTrue(reply["ok"], reply)
        want = torch.relu(torch.nn.functional.linear(x.float(), w.float(), b.float())).bfloat16()
        self.assertEqual(reply["output_bytes"], [16 * 24 * 2])
        self.assertEqual(got, _pack([want]))

    def test_wrong_input_length(self) -> None:
        s = Server(self.tasks[("linear_relu", "fp32")], "cpu")
        size = {"batch_size": 16, "in_features": 32, "out_features": 24}
        reply, _ = self._forward(s, size, [torch.zeros(16, 32)])
        self.assertFalse(reply["ok"])
        self.assertIn(f"expected {4 * (16 * 32 + 24 * 32 + 24)}", reply["error"])
        whole = [torch.zeros(16, 32), torch.zeros(24, 32), torch.zeros(24)]
        reply, _ = self._forward(s, size, whole + [torch.zeros(1)])
        self.assertFalse(reply["ok"])
        self.assertIn(f"has more than {4 * (16 * 32 + 24 * 32 + 24)} bytes", reply["error"])
        reply, _ = self._forward(s, size, whole)
        self.assertTrue(reply["ok"], reply)

    def test_time_on_cpu(self) -> None:
        s = Server(self.tasks[("linear_relu", "fp32")], "cpu")
        size = {"batch_size": 16, "in_features": 32, "out_features": 24}
        r = s.handle({"id": 5, "op": "time", "size": size, "mode": "eager", "compile_mode": "default", "tier": TIER})
        self.assertTrue(r["ok"], r)
        self.assertGreaterEqual(len(r["samples_us"]), 5)
        self.assertTrue(all(x > 0 and math.isfinite(x) for x in r["samples_us"]))
        self.assertGreater(r["first_call_s"], 0)
        r = s.handle({"id": 6, "op": "time", "size": size, "mode": "eager", "tier": {"warmup_ms": 1}})
        self.assertFalse(r["ok"])
        self.assertIn("tier.warmup_calls", r["error"])

    @unittest.skipUnless(torch.cuda.is_available(), "needs a GPU")
    def test_cuda_forward_and_time(self) -> None:
        s = Server(self.tasks[("linear_relu", "fp32")], "cuda")
        size = {"batch_size": 16, "in_features": 32, "out_features": 24}
        x, w, b = torch.randn(16, 32), torch.randn(24, 32), torch.randn(24)
        reply, got = self._forward(s, size, [x, w, b])
        self.assertTrue(reply["ok"], reply)
        want = torch.relu(torch.nn.functional.linear(x, w, b))
        got_t = torch.frombuffer(bytearray(got), dtype=torch.float32).reshape(16, 24)
        torch.testing.assert_close(got_t, want, atol=1e-5, rtol=1e-5)
        tier = dict(TIER, flush_bytes=1 << 20)
        for mode in ("eager", "compile"):
            r = s.handle({"id": 9, "op": "time", "size": size, "mode": mode, "compile_mode": "default", "tier": tier})
            self.assertTrue(r["ok"], r)
            self.assertGreaterEqual(len(r["samples_us"]), 5)

    def test_process_stdout_carries_protocol_only(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            prob = Path(tmp) / "noisy.py"
            prob.write_text(textwrap.dedent("""
                import torch
                print("hello from the module")
                class Model(torch.nn.Module):
                    def forward(self, x):
                        print("hello from forward")
                        if x.shape[0] == 9:
                            raise ValueError("nine rows\\nsecond line")
                        return x * 3
                N = 64
                def get_inputs():
                    return [torch.randn(N, 4)]
                def get_init_inputs():
                    return []
                """))
            task = Path(tmp) / "task"
            with contextlib.redirect_stdout(io.StringIO()):
                import_problem(prob, task)
            inp, outp = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
            x = torch.randn(16, 4)
            inp.write_bytes(_pack([x]))
            bad = Path(tmp) / "bad.bin"
            bad.write_bytes(_pack([torch.randn(9, 4)]))
            reqs = [{"id": 1, "op": "hello"},
                    {"id": 2, "op": "forward", "size": {"N": 16}, "inputs": str(inp), "outputs": str(outp)},
                    {"id": 3, "op": "forward", "size": {"N": 9}, "inputs": str(bad), "outputs": str(outp)},
                    "not json",
                    {"id": 4, "op": "bye"}]
            text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in reqs) + "\n"
            r = subprocess.run([sys.executable, "-m", "kopt_torch", "serve", str(task), "--device", "cpu"],
                               cwd=PYTHON_DIR, input=text, capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            replies = [json.loads(line) for line in r.stdout.splitlines()]
            self.assertEqual([(x.get("id"), x["ok"]) for x in replies],
                             [(1, True), (2, True), (3, False), (None, False), (4, True)])
            self.assertEqual(replies[2]["error"], "Model.forward raised ValueError: nine rows")
            self.assertIn("hello from forward", r.stderr)
            self.assertEqual(outp.read_bytes(), _pack([x * 3]))


if __name__ == "__main__":
    unittest.main()
