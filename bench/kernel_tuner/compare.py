#!/usr/bin/env python3
"""kopt and Kernel Tuner side by side on one kernel, one tuning space and one problem size (issue #3).

Both tuners search the same source (examples/sgemm/tunable/sgemm_tunable_kernel.cu by default) over
the same space: the kernel's `// kopt:knob` values and `// kopt:constraint` lines, translated to Kernel
Tuner's tune_params and restrictions. Both search exhaustively (Kernel Tuner: brute_force, cupy
backend, its default 7 iterations; kopt: --search exhaustive with the space size as budget), both
verify every configuration against a reference, and the script records for each: wall time,
configurations evaluated, configurations per second, the best configuration, its time and when it was
first reached. Finally both winners are re-timed with one clock (cupy events, median of many launches)
so that "same or better best configuration" is judged the same way for both.

Every step that fails prints why and the script goes on with the other side. See README.md here and
docs/benchmarks.md ("Kernel Tuner side by side (issue #3)").

  python3 bench/kernel_tuner/compare.py --dry-run          # CPU: both space counts, no GPU needed
  python3 bench/kernel_tuner/compare.py --kopt build/bin/kopt --worker build/bin/kopt-worker \
      --wheels .carry/wheels --size 4096 --out out/kt
"""

import argparse
import datetime as dt
import itertools
import json
import math
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
import traceback
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_KERNEL = REPO / "examples" / "sgemm" / "tunable" / "sgemm_tunable_kernel.cu"
HAND_TILED = REPO / "examples" / "sgemm" / "candidates" / "sgemm_tiled_kernel.cu"
TASK_TEMPLATE = HERE / "sgemm_task" / "task.toml"
TEMPLATE_SIZE = 4096
# Valid configurations of the unrestricted sgemm space as kopt counts them; tests/tuning/
# sgemm_tunable_test.cpp asserts the same number through TuningSpace::enumerate.
KOPT_VALID_COUNT = 664
KERNEL_NAME = "sgemm"
ATOL, RTOL = 1e-5, 1e-4  # the task's f32 tolerance: |got - ref| <= atol * max|ref| + rtol * |ref|
SEED = 1


def log(message):
    print(f"[compare] {message}", file=sys.stderr, flush=True)


def utc_now():
    return dt.datetime.now(dt.timezone.utc)


def parse_utc(text):
    """Kernel Tuner's str(datetime) and kopt's store timestamps ('...Z') as aware datetimes."""
    text = text.strip().replace("Z", "+00:00")
    if " " in text and "T" not in text:
        text = text.replace(" ", "T", 1)
    return dt.datetime.fromisoformat(text)


# ---------------------------------------------------------------------------------------------------
# The tuning space, read from the kernel's kopt annotations
# ---------------------------------------------------------------------------------------------------

KNOB_RE = re.compile(r"^\s*//\s*kopt:knob\s+([A-Za-z_]\w*)\s*=\s*\[([^\]]*)\](.*)$")
RANGE_RE = re.compile(r"^\s*//\s*kopt:knob\s+([A-Za-z_]\w*)\s*=\s*range\(([^)]*)\)(.*)$")
CONSTRAINT_RE = re.compile(r"^\s*//\s*kopt:constraint\s+(.+?)\s*$")
LAUNCH_RE = re.compile(r"^\s*//\s*kopt:launch\s+(.*)$")
FLAG_RE = re.compile(r"^\s*//\s*kopt:flag\b")


def to_python(expr):
    """kopt's C-like expression grammar (docs/task-format.md) as a Python expression with integer
    semantics: / is floor division (all operands here are non-negative), && || ! are and/or/not,
    ceil_div(a, b) is a helper. The ternary ?: is refused (no knob of ours uses it)."""
    if "?" in expr:
        raise ValueError(f"'{expr}': the ternary operator is not translated")
    out = expr.replace("&&", " and ").replace("||", " or ")
    out = re.sub(r"!(?!=)", " not ", out)
    out = re.sub(r"(?<!/)/(?!/)", "//", out)
    return out


def ceil_div(a, b):
    return -(-a // b)


EVAL_GLOBALS = {"__builtins__": {}, "ceil_div": ceil_div, "min": min, "max": max, "abs": abs}


class Space:
    def __init__(self, source):
        self.knobs = {}  # name -> list of int values, in declaration order
        self.constraints = []  # kopt text
        self.grid, self.block = [], []
        for number, line in enumerate(source.splitlines(), 1):
            if FLAG_RE.match(line):
                raise ValueError(f"line {number}: kopt:flag knobs are not translated to Kernel Tuner")
            m = KNOB_RE.match(line)
            if m:
                self.knobs[m.group(1)] = [int(v) for v in m.group(2).split(",") if v.strip()]
                continue
            m = RANGE_RE.match(line)
            if m:
                parts = [int(v) for v in m.group(2).split(",")]
                lo, hi, step = parts[0], parts[1], parts[2] if len(parts) > 2 else 1
                self.knobs[m.group(1)] = list(range(lo, hi + 1, step))
                continue
            m = CONSTRAINT_RE.match(line)
            if m:
                self.constraints.append(m.group(1))
                continue
            m = LAUNCH_RE.match(line)
            if m:
                self.grid = split_launch_field(m.group(1), "grid")
                self.block = split_launch_field(m.group(1), "block")
        if not self.knobs:
            raise ValueError("no // kopt:knob lines")
        if not self.grid or not self.block:
            raise ValueError("no // kopt:launch grid=(...) block=(...) line")

    def python_constraints(self, sizes=None):
        """Constraints as Python; size scalars (none in the sgemm space) replaced by their values."""
        out = []
        for c in self.constraints:
            py = to_python(c)
            for name, value in (sizes or {}).items():
                py = re.sub(rf"\b{name}\b", str(value), py)
            out.append(py)
        return out

    def valid_configurations(self, sizes):
        compiled = [compile(c, "<constraint>", "eval") for c in self.python_constraints(sizes)]
        block = [compile(to_python(b), "<block>", "eval") for b in self.block]
        names = list(self.knobs)
        for values in itertools.product(*self.knobs.values()):
            env = dict(zip(names, values))
            if not all(eval(c, EVAL_GLOBALS, env) for c in compiled):
                continue
            threads = [eval(b, EVAL_GLOBALS, dict(env, **sizes)) for b in block]
            if min(threads) < 1 or math.prod(threads) > 1024:  # kopt's launch-geometry pruning
                continue
            yield env

    def launch(self, config, sizes):
        env = dict(config, **sizes)
        grid = [eval(compile(to_python(g), "<grid>", "eval"), EVAL_GLOBALS, env) for g in self.grid]
        block = [eval(compile(to_python(b), "<block>", "eval"), EVAL_GLOBALS, env) for b in self.block]
        return tuple(grid + [1] * (3 - len(grid))), tuple(block + [1] * (3 - len(block)))


def split_launch_field(text, field):
    """The comma-separated expressions of grid=(...) or block=(...), parentheses balanced."""
    start = text.find(field + "=(")
    if start < 0:
        return []
    i, depth, current, parts = start + len(field) + 2, 1, "", []
    while i < len(text) and depth > 0:
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                break
        if ch == "," and depth == 1:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
        i += 1
    parts.append(current.strip())
    return parts


def restrict_source(source, restrictions):
    """Rewrites `// kopt:knob NAME = [...]` lines to keep only the listed values (--restrict), so that
    both tuners search the same smaller space of the same kernel."""
    for item in restrictions:
        name, _, values = item.partition("=")
        keep = [int(v) for v in values.split(",") if v.strip()]
        pattern = re.compile(rf"^(\s*//\s*kopt:knob\s+{re.escape(name)}\s*=\s*)\[([^\]]*)\](.*)$", re.M)
        m = pattern.search(source)
        if not m:
            raise ValueError(f"--restrict {item}: no '// kopt:knob {name} = [...]' line in the kernel")
        existing = [int(v) for v in m.group(2).split(",")]
        unknown = [v for v in keep if v not in existing]
        if unknown or not keep:
            raise ValueError(f"--restrict {item}: expected a non-empty subset of {existing}")
        kept = ", ".join(str(v) for v in existing if v in keep)
        source = source[: m.start()] + f"{m.group(1)}[{kept}]{m.group(3)}" + source[m.end():]
    return source


# ---------------------------------------------------------------------------------------------------
# Kernel Tuner: translation, installation, the tuning run (in a child process)
# ---------------------------------------------------------------------------------------------------

def kernel_tuner_problem(space, sizes):
    """tune_params, restrictions, problem_size and grid divisors for Kernel Tuner.

    The block size is an expression of the knobs, (BM / TM) * (BN / TN); Kernel Tuner takes block
    sizes from tune parameters, so block_size_x is one more parameter whose values are every thread
    count the space can produce, tied to the knobs by one more restriction. It is determined by the
    other knobs, so the number of valid configurations does not change. The grid must be
    ceil_div(SIZE, KNOB) per dimension: problem_size = the sizes, grid_div = the knobs."""
    if len(space.block) != 1:
        raise ValueError("only a 1-D block expression is translated")
    tune_params = {name: list(values) for name, values in space.knobs.items()}
    valid = list(space.valid_configurations(sizes))
    block_expr = to_python(space.block[0])
    threads = sorted({eval(block_expr, EVAL_GLOBALS, dict(c, **sizes)) for c in valid})
    if "block_size_x" in tune_params:
        raise ValueError("a knob named block_size_x clashes with Kernel Tuner's block size parameter")
    tune_params["block_size_x"] = threads
    restrictions = space.python_constraints(sizes) + [block_restriction(block_expr)]
    problem_size, grid_div = [], []
    for g in space.grid:
        m = re.fullmatch(r"ceil_div\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*\)", g)
        if not m or m.group(1) not in sizes or m.group(2) not in space.knobs:
            raise ValueError(f"grid expression '{g}': expected ceil_div(SIZE, KNOB)")
        problem_size.append(sizes[m.group(1)])
        grid_div.append([m.group(2)])
    return {"tune_params": tune_params, "restrictions": restrictions, "problem_size": problem_size,
            "grid_div": grid_div, "python_count": len(valid)}


def block_restriction(block_expr):
    """The restriction tying block_size_x to the knobs. Kernel Tuner 1.3.3 (python-constraint2 2.9.0)
    mis-parses `block_size_x == (BM // TM) * (BN // TN)` and keeps no configuration at all, while the
    equivalent product form `block_size_x * TM * TN == BM * BN` (TM divides BM, TN divides BN: the
    kernel static_asserts it) is counted right; --dry-run checks the count either way."""
    m = re.fullmatch(r"\(\s*(\w+)\s*//\s*(\w+)\s*\)\s*\*\s*\(\s*(\w+)\s*//\s*(\w+)\s*\)", block_expr.strip())
    if m:
        return f"block_size_x * {m.group(2)} * {m.group(4)} == {m.group(1)} * {m.group(3)}"
    return f"block_size_x == {block_expr}"


KT_MODULES = {  # import name -> wheel file prefix
    "kernel_tuner": "kernel_tuner",
    "constraint": "python_constraint2",
    "scipy": "scipy",
    "jsonschema": "jsonschema-",
    "jsonschema_specifications": "jsonschema_specifications",
    "referencing": "referencing",
    "rpds": "rpds_py",
    "attrs": "attrs",
    "typing_extensions": "typing_extensions",
    "xmltodict": "xmltodict",
    "packaging": "packaging",
}


def importable(module, extra_path=None):
    code = f"import {module}"
    env = dict(os.environ)
    if extra_path:
        env["PYTHONPATH"] = str(extra_path) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True).returncode == 0


def install_kernel_tuner(wheels, target):
    """Makes kernel_tuner importable with PYTHONPATH=target, never touching the system Python: the
    wheels of the modules this Python cannot import yet go into `target` with pip (no index, no
    dependencies resolved: numpy and cupy stay the system's), or, without pip, are unpacked there
    (a wheel is a zip of the installed files). Returns the path to add, or None when kernel_tuner is
    already importable."""
    if importable("kernel_tuner"):
        return None
    if importable("kernel_tuner", target):
        return target
    wheels = Path(wheels) if wheels else None
    if not wheels or not wheels.is_dir():
        raise RuntimeError(f"kernel_tuner is not importable and --wheels '{wheels}' is not a folder "
                           "(run scripts/fetch-kernel-tuner.sh on a machine with network)")
    files = sorted(wheels.glob("*.whl"))
    chosen = []
    for module, prefix in KT_MODULES.items():
        if importable(module):
            continue
        match = [f for f in files if f.name.lower().startswith(prefix.lower())]
        if not match:
            raise RuntimeError(f"{module} is not importable and no {prefix}*.whl in {wheels}")
        chosen.append(match[-1])
    target.mkdir(parents=True, exist_ok=True)
    log(f"installing {len(chosen)} wheels into {target}: {', '.join(f.name for f in chosen)}")
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                          "--disable-pip-version-check", "--target", str(target)] + [str(f) for f in chosen],
                         capture_output=True, text=True)
    if pip.returncode != 0:
        log(f"pip failed ({pip.stderr.strip()[-300:]}); unpacking the wheels instead")
        for f in chosen:
            with zipfile.ZipFile(f) as z:
                z.extractall(target)
    if not importable("kernel_tuner", target):
        raise RuntimeError(f"kernel_tuner still not importable from {target}")
    return target


def make_inputs(cp, np, size):
    rng = np.random.default_rng(SEED)
    m = n = k = size
    a = rng.uniform(-1.0, 1.0, size=(m, k)).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, size=(k, n)).astype(np.float32)
    # cuBLAS in FP32 (cupy uses TF32 only when CUPY_TF32=1; it is cleared before cupy is imported).
    ref = cp.asnumpy(cp.matmul(cp.asarray(a), cp.asarray(b)))
    return a, b, ref


def within_tolerance(np, got, ref):
    """kopt's criterion for f32 (docs/verification.md): |got - ref| <= atol * max|ref| + rtol * |ref|."""
    got = np.asarray(got).reshape(ref.shape)
    if not np.all(np.isfinite(got)):
        return False
    scale = float(np.max(np.abs(ref)))
    return bool(np.all(np.abs(got - ref) <= ATOL * scale + RTOL * np.abs(ref)))


def kt_child(spec_path):
    """Runs in its own process (so that a timeout can stop it): one Kernel Tuner brute-force run."""
    spec = json.loads(Path(spec_path).read_text())
    os.environ["CUPY_TF32"] = "0"
    setup_t0 = time.perf_counter()  # its setup: imports, the CUDA context, inputs and the reference answer
    import numpy as np
    import cupy as cp
    from kernel_tuner import tune_kernel

    size = spec["size"]
    a, b, ref = make_inputs(cp, np, size)
    c = np.zeros((size, size), dtype=np.float32)
    args = [c, a, b, np.int32(size), np.int32(size), np.int32(size)]
    kwargs = {}
    if spec["verify"]:
        kwargs["answer"] = [ref, None, None, None, None, None]
        kwargs["verify"] = lambda answer, result, atol=None: within_tolerance(np, result[0], answer[0])
    problem = spec["problem"]
    grid_div = problem["grid_div"] + [None] * (3 - len(problem["grid_div"]))
    started = utc_now()
    t0 = time.perf_counter()
    setup = t0 - setup_t0
    results, env = tune_kernel(
        KERNEL_NAME, Path(spec["kernel"]).read_text(), tuple(problem["problem_size"]), args,
        problem["tune_params"], grid_div_x=grid_div[0], grid_div_y=grid_div[1], grid_div_z=grid_div[2],
        restrictions=problem["restrictions"], lang="cupy", compiler_options=["-std=c++17"],
        strategy="brute_force", cache=spec["cache"], quiet=True, **kwargs)
    wall = time.perf_counter() - t0
    Path(spec["result"]).write_text(json.dumps({
        "started_utc": started.isoformat(), "wall_seconds": wall, "setup_seconds": setup,
        "results": [plain_result(r, problem["tune_params"]) for r in results],
        "device": str(env.get("device_name", "")), "kernel_tuner_version": str(env.get("kernel_tuner_version", "")),
    }, indent=1))


def plain_result(r, tune_params):
    out = {"config": {k: r[k] for k in tune_params if k in r and k != "block_size_x"}}
    t = r.get("time")
    out["time_ms"] = t if isinstance(t, (int, float)) else None
    if out["time_ms"] is not None:
        out["error"] = None
    else:
        out["error"] = t if isinstance(t, str) else (type(t).__name__ if t is not None else "missing")
    for key in ("timestamp", "compile_time", "verification_time", "benchmark_time", "framework_time"):
        if key in r:
            out[key] = r[key] if not isinstance(r[key], float) or math.isfinite(r[key]) else None
    return out


def read_kt_cache(path, tune_params):
    """Kernel Tuner's cache file as written so far: it appends one entry per configuration and closes
    the JSON only at the end, so a killed run leaves it open (closed here the way Kernel Tuner's own
    correct_open_cache does). Failed configurations hold the error's class name as their time."""
    text = Path(path).read_text().strip()
    if text and text[-3:] not in ("}\n}", "}}}"):
        text = text.rstrip(",") + "}\n}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return []
    return [plain_result(entry, tune_params) for entry in data.get("cache", {}).values()]


def fresh_cache_env(out, tuner):
    """Environment variables that point every on-disk compile cache of `tuner` at an empty folder under
    `out`, so that each run of a repeated comparison starts cold: CuPy's kernel cache and the driver's
    compute cache (PTX JIT) for Kernel Tuner; kopt's CUBIN cache for kopt (kopt turns the driver's cache
    off itself). Without this only the first run on a fresh machine is a cold measurement."""
    root = out / "caches" / tuner
    if tuner == "kernel_tuner":
        env = {"CUPY_CACHE_DIR": str(root / "cupy"), "CUDA_CACHE_PATH": str(root / "cuda")}
    else:
        env = {"KOPT_CACHE_DIR": str(root / "kopt")}
    for folder in env.values():
        Path(folder).mkdir(parents=True, exist_ok=True)
    return env


def run_kernel_tuner(args, space, kernel_path, out, verify, label):
    summary = {"tuner": "Kernel Tuner", "verify": verify, "label": label}
    try:
        sizes = {"M": args.size, "N": args.size, "K": args.size}
        problem = kernel_tuner_problem(space, sizes)
        site = install_kernel_tuner(args.wheels, out / "kt_site")
        cache = out / f"kt_cache_{label}.json"
        result = out / f"kt_result_{label}.json"
        for f in (cache, result):
            if f.exists():
                f.unlink()
        spec = out / f"kt_spec_{label}.json"
        spec.write_text(json.dumps({"size": args.size, "kernel": str(kernel_path), "problem": problem,
                                    "verify": verify, "cache": str(cache), "result": str(result)}))
        env = dict(os.environ, CUPY_TF32="0", **fresh_cache_env(out, "kernel_tuner"))
        if site:
            env["PYTHONPATH"] = str(site) + os.pathsep + env.get("PYTHONPATH", "")
        log(f"Kernel Tuner ({label}): brute force over {problem['python_count']} configurations")
        t0 = time.perf_counter()
        started = utc_now()
        with open(out / f"kt_{label}.log", "w") as logfile:
            code, timed_out = run_with_timeout(
                [sys.executable, str(Path(__file__).resolve()), "--kt-child", str(spec)], env, args.kt_timeout,
                logfile, subprocess.STDOUT)
        process_wall = time.perf_counter() - t0
        summary.update({"process_wall_seconds": process_wall, "timed_out": timed_out,
                        "exit_code": code, "space_size": problem["python_count"]})
        if result.exists():
            data = json.loads(result.read_text())
            rows, wall, started = data["results"], data["wall_seconds"], parse_utc(data["started_utc"])
            summary["kernel_tuner_version"] = data.get("kernel_tuner_version")
            summary["setup_seconds"] = data.get("setup_seconds")
        else:
            tail = (out / f"kt_{label}.log").read_text()[-1500:]
            log(f"Kernel Tuner ({label}) did not finish (exit {code}, timed out: {timed_out}); "
                f"reading its cache. Log tail:\n{tail}")
            rows = read_kt_cache(cache, problem["tune_params"]) if cache.exists() else []
            wall = process_wall
        summary.update(summarise(rows, wall, started, "time_ms"))
    except Exception as e:  # keep going with the other side
        summary["failure"] = f"{type(e).__name__}: {e}"
        log(f"Kernel Tuner ({label}) failed: {summary['failure']}\n{traceback.format_exc()}")
    return summary


def run_with_timeout(cmd, env, timeout, stdout, stderr):
    """Runs cmd in its own process group; after `timeout` seconds kills the whole group (kopt's worker,
    Kernel Tuner's compiler processes with it). Returns (exit code or None, timed out)."""
    child = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=stderr, start_new_session=True)
    try:
        return child.wait(timeout=timeout), False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()
        return None, True


def summarise(rows, wall, started, key):
    ok = [r for r in rows if r.get(key) is not None]
    out = {"wall_seconds": wall, "evaluated": len(rows), "ok": len(ok),
           "configs_per_second": len(rows) / wall if wall > 0 else None}
    if ok:
        best = min(ok, key=lambda r: r[key])
        out["best_config"] = best["config"]
        out["best_ms"] = best[key]
        if best.get("timestamp"):
            out["time_to_best_seconds"] = (parse_utc(best["timestamp"]) - started).total_seconds()
    return out


# ---------------------------------------------------------------------------------------------------
# kopt
# ---------------------------------------------------------------------------------------------------

def kopt_task_dir(size, out):
    if size == TEMPLATE_SIZE:
        return TASK_TEMPLATE.parent
    text = TASK_TEMPLATE.read_text()
    text = re.sub(rf"^(M|N|K) = {TEMPLATE_SIZE}$", lambda m: f"{m.group(1)} = {size}", text, flags=re.M)
    reference = (TASK_TEMPLATE.parent / "../../../examples/sgemm/reference.cu").resolve()
    text = text.replace('source = "../../../examples/sgemm/reference.cu"', f'source = "{reference}"')
    task = out / f"sgemm_task_{size}"
    task.mkdir(parents=True, exist_ok=True)
    (task / "task.toml").write_text(text)
    return task


def run_kopt(args, space_size, kernel_path, out):
    summary = {"tuner": "kopt"}
    try:
        if not args.kopt or not Path(args.kopt).exists():
            raise RuntimeError(f"--kopt '{args.kopt}' does not exist")
        task = kopt_task_dir(args.size, out)
        store = out / "kopt.db"
        for f in (store, Path(str(store) + "-wal"), Path(str(store) + "-shm")):
            if f.exists():
                f.unlink()
        cmd = [str(args.kopt), "optimize", str(task), "--from", str(kernel_path), "--search", "exhaustive",
               "--budget", str(space_size), "--store", str(store), "--json"]
        if not args.kopt_confirm:
            cmd.append("--no-confirm")
        env = dict(os.environ, **fresh_cache_env(out, "kopt"))
        if args.worker:
            env["KOPT_WORKER"] = str(Path(args.worker).resolve())
        log("kopt: " + " ".join(cmd))
        t0 = time.perf_counter()
        with open(out / "kopt.stdout.json", "w") as so, open(out / "kopt.stderr.log", "w") as se:
            code, timed_out = run_with_timeout(cmd, env, args.kopt_timeout, so, se)
        process_wall = time.perf_counter() - t0
        stdout = (out / "kopt.stdout.json").read_text()
        stderr = (out / "kopt.stderr.log").read_text()
        summary.update({"command": cmd, "exit_code": code, "timed_out": timed_out,
                        "process_wall_seconds": process_wall, "space_size": space_size})
        report = None
        try:
            report = json.loads(stdout) if stdout.strip() else None
        except json.JSONDecodeError:
            log(f"kopt printed no JSON document (exit {code}); stderr tail:\n{stderr[-1500:]}")
        if report:
            summary["json"] = report
            if isinstance(report.get("error"), dict):
                summary["failure"] = f"kopt exited {code}: {report['error'].get('message')}"
                log(summary["failure"])
        rows, started = read_kopt_store(store)
        wall = report.get("elapsed_seconds") if report and report.get("elapsed_seconds") else process_wall
        summary.update(summarise(rows, wall, started, "median_ms") if started else {"evaluated": 0})
        if report and report.get("best") and report["best"].get("config"):
            summary["incumbent_config"] = parse_config_key(report["best"]["config"])
        if report and report.get("search_time"):
            summary["search_time"] = report["search_time"]
            # Before its search's clock, as Kernel Tuner's reference answer is before tune_kernel's.
            if report["search_time"].get("setup_ms") is not None:
                summary["setup_seconds"] = report["search_time"]["setup_ms"] / 1000.0
    except Exception as e:
        summary["failure"] = f"{type(e).__name__}: {e}"
        log(f"kopt failed: {summary['failure']}\n{traceback.format_exc()}")
    return summary


def read_kopt_store(store):
    """Every screen-tier evaluation of the run, oldest first: its knobs, the timed size's median and
    when it was recorded (the store's created_at, ISO 8601 UTC), and the run's start."""
    if not store.exists():
        return [], None
    con = sqlite3.connect(str(store))
    try:
        run = con.execute("SELECT id, started_at FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        if not run:
            return [], None
        rows = []
        query = ("SELECT c.knobs, e.status, e.sizes, e.created_at FROM evaluations e "
                 "JOIN candidates c ON c.id = e.candidate_id WHERE c.run_id = ? AND e.tier = 'screen' "
                 "ORDER BY e.id")
        for knobs, status, sizes, created in con.execute(query, (run[0],)):
            median = None
            if status == "ok":
                timed = [s for s in json.loads(sizes) if not s.get("verify_only") and s.get("median_us")]
                if timed:
                    median = timed[-1]["median_us"] / 1000.0
            rows.append({"config": {k: int(v) for k, v in json.loads(knobs).items()}, "median_ms": median,
                         "status": status, "timestamp": created})
        return rows, parse_utc(run[1])
    finally:
        con.close()


def parse_config_key(key):
    out = {}
    for part in key.split(";"):
        name, _, value = part.partition("=")
        if name:
            out[name] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return out


# ---------------------------------------------------------------------------------------------------
# One clock for both winners
# ---------------------------------------------------------------------------------------------------

def retime(args, configs):
    """Median of args.retime_launches single-launch cupy event timings per configuration (after a
    warm-up), with the output checked against cuBLAS FP32 in kopt's tolerance."""
    os.environ["CUPY_TF32"] = "0"
    import numpy as np
    import cupy as cp

    size = args.size
    a, b, ref = make_inputs(cp, np, size)
    da, db = cp.asarray(a), cp.asarray(b)
    dc = cp.zeros((size, size), dtype=cp.float32)
    sizes = {"M": size, "N": size, "K": size}
    timings = {}

    def time_launches(fn):
        for _ in range(3):
            fn()
        cp.cuda.Device().synchronize()
        samples = []
        for _ in range(args.retime_launches):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, stop))
        return statistics.median(samples)

    for label, (text, config, launch_space) in configs.items():
        try:
            defines = "".join(f"#define {k} {v}\n" for k, v in (config or {}).items())
            module = cp.RawModule(code=defines + text, options=("-std=c++17",), name_expressions=[KERNEL_NAME])
            kernel = module.get_function(KERNEL_NAME)
            grid, block = launch_space.launch(config or {}, sizes)
            call = (dc, da, db, np.int32(size), np.int32(size), np.int32(size))
            dc.fill(float("nan"))
            kernel(grid, block, call)
            ok = within_tolerance(np, cp.asnumpy(dc), ref)
            timings[label] = {"config": config, "median_ms": time_launches(lambda: kernel(grid, block, call)),
                              "verified": ok}
        except Exception as e:
            timings[label] = {"config": config, "failure": f"{type(e).__name__}: {e}"}
            log(f"re-timing {label} failed: {timings[label]['failure']}")
    try:
        timings["cublas_fp32"] = {"median_ms": time_launches(lambda: cp.matmul(da, db, out=dc))}
    except Exception as e:
        timings["cublas_fp32"] = {"failure": f"{type(e).__name__}: {e}"}
    flops = 2.0 * size ** 3
    for t in timings.values():
        if t.get("median_ms"):
            t["tflops"] = flops / (t["median_ms"] * 1e-3) / 1e12
    return timings


# ---------------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------------

def dry_run(args, space, kernel_path, restricted):
    sizes = {"M": args.size, "N": args.size, "K": args.size}
    problem = kernel_tuner_problem(space, sizes)
    print(f"kernel: {kernel_path}")
    print(f"knobs: {json.dumps(space.knobs)}")
    print(f"Kernel Tuner restrictions: {json.dumps(problem['restrictions'])}")
    print(f"Kernel Tuner problem_size={problem['problem_size']} grid_div={problem['grid_div']} "
          f"block_size_x={problem['tune_params']['block_size_x']}")
    print(f"valid configurations (kopt's rules, in Python): {problem['python_count']}")
    counts_agree = True
    if not restricted:
        print(f"valid configurations (kopt, pinned by tests/tuning/sgemm_tunable_test.cpp): {KOPT_VALID_COUNT}")
        counts_agree = problem["python_count"] == KOPT_VALID_COUNT
    try:
        site = install_kernel_tuner(args.wheels, Path(args.out) / "kt_site") if args.wheels else None
        code = ("import json, sys\nfrom kernel_tuner.searchspace import Searchspace\n"
                "p = json.loads(sys.argv[1])\n"
                "s = Searchspace(p['tune_params'], p['restrictions'], 1024)\nprint(s.size)\n")
        env = dict(os.environ)
        if site:
            env["PYTHONPATH"] = str(site) + os.pathsep + env.get("PYTHONPATH", "")
        proc = subprocess.run([sys.executable, "-c", code, json.dumps(problem)], env=env, capture_output=True,
                              text=True)
        if proc.returncode == 0:
            kt_count = int(proc.stdout.strip().splitlines()[-1])
            print(f"valid configurations (Kernel Tuner's Searchspace): {kt_count}")
            counts_agree = counts_agree and kt_count == problem["python_count"]
        else:
            print(f"Kernel Tuner's Searchspace not counted (kernel_tuner not importable: "
                  f"{proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else 'no detail'})")
    except Exception as e:
        print(f"Kernel Tuner's Searchspace not counted: {e}")
    print("counts agree" if counts_agree else "COUNTS DIFFER")
    return 0 if counts_agree else 1


def run_ratios(kt, ko, rt):
    ratios = {}
    if kt.get("configs_per_second") and ko.get("configs_per_second"):
        ratios["kopt_configs_per_second_over_kernel_tuner"] = ko["configs_per_second"] / kt["configs_per_second"]
    if kt.get("time_to_best_seconds") and ko.get("time_to_best_seconds"):
        ratios["kernel_tuner_time_to_best_over_kopt"] = kt["time_to_best_seconds"] / ko["time_to_best_seconds"]
    a, b = rt.get("kernel_tuner_best", {}).get("median_ms"), rt.get("kopt_best", {}).get("median_ms")
    if a and b:
        ratios["kopt_best_speed_over_kernel_tuner_best"] = a / b  # > 1: kopt's winner is faster
    return ratios


def repeat_summary(runs):
    """The configurations-per-second ratio of every paired run, its median and its minimum (a goal is
    met only when the minimum meets it)."""
    ratios = [r["ratios"]["kopt_configs_per_second_over_kernel_tuner"] for r in runs
              if r.get("ratios", {}).get("kopt_configs_per_second_over_kernel_tuner")]
    rates = {side: [r[side]["configs_per_second"] for r in runs if r.get(side, {}).get("configs_per_second")]
             for side in ("kopt", "kernel_tuner")}
    out = {"runs": len(runs), "ratios": ratios, "kopt_configs_per_second": rates["kopt"],
           "kernel_tuner_configs_per_second": rates["kernel_tuner"]}
    if ratios:
        out.update({"median_ratio": statistics.median(ratios), "min_ratio": min(ratios), "max_ratio": max(ratios)})
    return out


def print_table(report):
    rows = [("", "Kernel Tuner", "kopt")]
    kt, ko = report.get("kernel_tuner", {}), report.get("kopt", {})

    def fmt(value, spec="{:.1f}"):
        return "-" if value is None else spec.format(value)

    rows.append(("configurations evaluated", fmt(kt.get("evaluated"), "{}"), fmt(ko.get("evaluated"), "{}")))
    rows.append(("verified ok", fmt(kt.get("ok"), "{}"), fmt(ko.get("ok"), "{}")))
    rows.append(("wall seconds", fmt(kt.get("wall_seconds")), fmt(ko.get("wall_seconds"))))
    rows.append(("setup before it (s)", fmt(kt.get("setup_seconds")), fmt(ko.get("setup_seconds"))))
    rows.append(("process seconds", fmt(kt.get("process_wall_seconds")), fmt(ko.get("process_wall_seconds"))))
    rows.append(("configurations / s", fmt(kt.get("configs_per_second"), "{:.2f}"),
                 fmt(ko.get("configs_per_second"), "{:.2f}")))
    rows.append(("time to best (s)", fmt(kt.get("time_to_best_seconds")), fmt(ko.get("time_to_best_seconds"))))
    rows.append(("best, own clock (ms)", fmt(kt.get("best_ms"), "{:.3f}"), fmt(ko.get("best_ms"), "{:.3f}")))
    rt = report.get("retime", {})
    rows.append(("best, one clock (ms)", fmt(rt.get("kernel_tuner_best", {}).get("median_ms"), "{:.3f}"),
                 fmt(rt.get("kopt_best", {}).get("median_ms"), "{:.3f}")))
    width = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("  ".join(r[i].ljust(width[i]) for i in range(3)))
    for label in ("kernel_tuner", "kopt"):
        side = report.get(label, {})
        if side.get("best_config"):
            print(f"{label} best: {side['best_config']}")
        if side.get("failure"):
            print(f"{label} FAILED: {side['failure']}")
    for label, t in rt.items():
        if t.get("median_ms"):
            print(f"re-timed {label}: {t['median_ms']:.3f} ms ({t.get('tflops', 0):.1f} TFLOP/s)"
                  + ("" if t.get("verified", True) else "  WRONG OUTPUT"))
    if report.get("ratios"):
        print("ratios: " + json.dumps(report["ratios"]))
    summary = report.get("repeat_summary", {})
    if summary.get("runs", 0) > 1:
        for run in report.get("runs", []):
            ko, kt = run.get("kopt", {}), run.get("kernel_tuner", {})
            ratio = run.get("ratios", {}).get("kopt_configs_per_second_over_kernel_tuner")
            print(f"run {run['run']} ({run['first']} first): kopt {fmt(ko.get('configs_per_second'), '{:.1f}')}/s, "
                  f"Kernel Tuner {fmt(kt.get('configs_per_second'), '{:.2f}')}/s, ratio {fmt(ratio, '{:.1f}')}x")
        if summary.get("ratios"):
            print(f"ratio over {len(summary['ratios'])} paired runs: median {summary['median_ratio']:.1f}x, "
                  f"min {summary['min_ratio']:.1f}x, max {summary['max_ratio']:.1f}x")
    search_time = report.get("kopt", {}).get("search_time")
    if search_time:
        print("kopt's search time (run 1): " + json.dumps({k: round(v, 1) if isinstance(v, float) else v
                                                          for k, v in search_time.items()}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kopt", help="kopt binary (build/bin/kopt)")
    parser.add_argument("--worker", help="kopt-worker binary (exported as KOPT_WORKER)")
    parser.add_argument("--wheels", help="folder of wheels from scripts/fetch-kernel-tuner.sh")
    parser.add_argument("--size", type=int, default=TEMPLATE_SIZE, help="M = N = K (default 4096)")
    parser.add_argument("--out", default=os.environ.get("OUT", "out/kernel_tuner"), help="output folder")
    parser.add_argument("--kernel", default=str(DEFAULT_KERNEL), help="kernel source with kopt annotations")
    parser.add_argument("--restrict", action="append", default=[], metavar="KNOB=v1,v2",
                        help="keep only these values of a knob, on both sides (repeatable)")
    parser.add_argument("--kt-timeout", type=float, default=1800, help="seconds for one Kernel Tuner run")
    parser.add_argument("--kopt-timeout", type=float, default=1800, help="seconds for the kopt run")
    parser.add_argument("--retime-launches", type=int, default=50, help="launches per re-timed kernel")
    parser.add_argument("--kt-unverified", action="store_true",
                        help="also run Kernel Tuner without answer= (its default, no verification)")
    parser.add_argument("--kopt-confirm", action="store_true",
                        help="let kopt confirm its best on the full timing tier (off: Kernel Tuner has no such step)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="paired runs, each with empty compile caches on both sides (default 1)")
    parser.add_argument("--skip-kt", action="store_true")
    parser.add_argument("--skip-kopt", action="store_true")
    parser.add_argument("--dry-run", action="store_true", help="print both space counts and exit (no GPU)")
    parser.add_argument("--kt-child", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.kt_child:
        kt_child(args.kt_child)
        return 0

    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    source = Path(args.kernel).read_text()
    restricted = bool(args.restrict)
    try:
        source = restrict_source(source, args.restrict)
        space = Space(source)
    except ValueError as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    kernel_path = out / "kernel.cu"  # the kernel both tuners read (restricted when --restrict is given)
    kernel_path.write_text(source)
    if args.dry_run:
        return dry_run(args, space, kernel_path, restricted or Path(args.kernel).resolve() != DEFAULT_KERNEL)

    sizes = {"M": args.size, "N": args.size, "K": args.size}
    space_size = sum(1 for _ in space.valid_configurations(sizes))
    report = {"schema": "kopt.kernel_tuner_compare/1", "date_utc": utc_now().isoformat(), "size": args.size,
              "kernel": str(Path(args.kernel).resolve()), "restrict": args.restrict, "space_size": space_size,
              "knobs": space.knobs, "constraints": space.constraints}
    log(f"space: {space_size} valid configurations; size {args.size}^3; output in {out}")

    # Paired runs, each with every compile cache empty (fresh_cache_env). kopt goes first in odd runs and
    # Kernel Tuner in even ones, so neither always finds the GPU and the file system warm.
    report["runs"] = []
    for index in range(args.repeat):
        run_out = out if args.repeat == 1 else out / f"run{index + 1}"
        run_out.mkdir(parents=True, exist_ok=True)
        paired = {"run": index + 1, "first": "kopt" if index % 2 == 0 else "kernel_tuner"}
        order = ["kopt", "kernel_tuner"] if index % 2 == 0 else ["kernel_tuner", "kopt"]
        for tuner in order:
            if tuner == "kopt" and not args.skip_kopt:
                paired["kopt"] = run_kopt(args, space_size, kernel_path, run_out)
            if tuner == "kernel_tuner" and not args.skip_kt:
                paired["kernel_tuner"] = run_kernel_tuner(args, space, kernel_path, run_out, verify=True,
                                                          label="verified")
                if args.kt_unverified:
                    paired["kernel_tuner_unverified"] = run_kernel_tuner(args, space, kernel_path, run_out,
                                                                         verify=False, label="unverified")
        paired["ratios"] = run_ratios(paired.get("kernel_tuner", {}), paired.get("kopt", {}), {})
        report["runs"].append(paired)
    # The first run's sides are the report's (their winners are re-timed below); every run is in "runs".
    for key in ("kopt", "kernel_tuner", "kernel_tuner_unverified"):
        if key in report["runs"][0]:
            report[key] = report["runs"][0][key]

    to_time = {}
    kt_best = report.get("kernel_tuner", {}).get("best_config")
    kopt_best = report.get("kopt", {}).get("incumbent_config") or report.get("kopt", {}).get("best_config")
    if kt_best:
        to_time["kernel_tuner_best"] = (source, kt_best, space)
    if kopt_best:
        to_time["kopt_best"] = (source, kopt_best, space)
        if report["kopt"].get("best_config") and report["kopt"]["best_config"] != kopt_best:
            to_time["kopt_fastest_screen"] = (source, report["kopt"]["best_config"], space)
    try:
        hand = HAND_TILED.read_text()
        to_time["hand_tiled_candidate"] = (hand, {}, Space("// kopt:knob UNUSED = [0]\n" + hand))
    except (OSError, ValueError) as e:
        log(f"hand-tiled candidate not re-timed: {e}")
    try:
        report["retime"] = retime(args, to_time)
    except Exception as e:
        report["retime"] = {"failure": {"failure": f"{type(e).__name__}: {e}"}}
        log(f"re-timing failed: {e}")

    report["ratios"] = run_ratios(report.get("kernel_tuner", {}), report.get("kopt", {}), report.get("retime", {}))
    report["repeat_summary"] = repeat_summary(report["runs"])
    (out / "kernel_tuner_compare.json").write_text(json.dumps(report, indent=2, default=str))
    print_table(report)
    print(f"written: {out / 'kernel_tuner_compare.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
