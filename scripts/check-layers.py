#!/usr/bin/env python3
"""The layer check: kopt's modules reach only down, and only through public headers.

  scripts/check-layers.py [--build-dir DIR] [--debt FILE] [--list]

Three rules, over src/ and include/ (docs/ARCHITECTURE.md, "Layers"):
  1. An #include of another module's private header is refused: a header under src/<module>/ belongs to
     that module; what modules share is a public header in include/kopt/.
  2. A library that links a library of a higher layer is refused (from CMake's own target graph:
     `cmake --graphviz` on the configured build folder). Within a layer any direction is allowed (the
     build refuses cycles itself).
  3. Every public header has an owning module (kopt/<module>.hpp and kopt/<module>_*.hpp by name, the
     others in PUBLIC_HEADER_OWNERS), and a module includes public headers of its own layer or below only:
     a static library can call up into a library it does not link, and only the final link notices.
Known violations are listed, one per line, in the debt file (default scripts/layer-debt.txt): they are
reported as debt, not failures, until they are fixed; a debt line that no longer matches anything is a
failure too, so that the list only shrinks. --list prints every violation in the debt file's format.
Exit code 0 when nothing but listed debt remains, 1 otherwise, 2 on a usage or setup error.
"""

import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Bottom to top. A module may link modules of its own layer or below.
LAYERS = [
    ("core", ["common", "toolchain", "task", "inputs", "compile", "worker", "verify", "measure", "eval",
              "analysis", "profile"]),
    ("run", ["store", "run", "farm"]),
    ("proposers", ["tuning", "search", "propose", "llm", "generate", "source_search", "optimize",
                   "suite_bench"]),
    ("output", ["report", "run_report", "bench_report"]),
    ("cli", ["cli"]),
]
# Public headers whose name does not start with their module's name. A new public header must be owned:
# by its name, or by a line here.
PUBLIC_HEADER_OWNERS = {
    "candidate_status.hpp": "common", "dtype.hpp": "common", "elapsed.hpp": "common", "float16.hpp": "common",
    "json_values.hpp": "common", "json_cursor.hpp": "common", "result.hpp": "common", "sha256.hpp": "common", "splitmix.hpp": "common", "strong_id.hpp": "common",
    "text.hpp": "common", "units.hpp": "common", "host_name.hpp": "common", "detail/": "common",
    "child_process.hpp": "toolchain", "torch_python.hpp": "toolchain", "expr.hpp": "task",
    "device.hpp": "worker", "kernel_activity.hpp": "worker", "worker/": "worker",
    "compile_check.hpp": "eval", "profile_candidate.hpp": "eval", "torch_import.hpp": "eval",
    "metric_names.hpp": "profile", "insight.hpp": "analysis",
    "runs.hpp": "run", "search_time_account.hpp": "run",
    "llm_roles.hpp": "llm", "generate_output.hpp": "report",
}
RANK = {module: rank for rank, (_, modules) in enumerate(LAYERS) for module in modules}
LAYER_NAME = {module: name for name, modules in LAYERS for module in modules}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.MULTILINE)
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cu", ".cuh"}


def modules_on_disk():
    return sorted(p.name for p in (ROOT / "src").iterdir() if p.is_dir())


def include_violations(modules):
    out = []
    owners = set(modules)
    for module in modules:
        for path in sorted((ROOT / "src" / module).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES:
                continue
            for match in INCLUDE.finditer(path.read_text(errors="replace")):
                owner = match.group(1)
                if owner in owners and owner != module:
                    out.append(f"include {module} -> {owner}/{match.group(2)}")
    for path in sorted((ROOT / "include").rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES:
            continue
        for match in INCLUDE.finditer(path.read_text(errors="replace")):
            if match.group(1) in owners:
                out.append(f"include public {path.relative_to(ROOT / 'include')} -> "
                           f"{match.group(1)}/{match.group(2)}")
    return sorted(set(out))


def owner_of_public_header(name, modules):
    """kopt/run_log.hpp -> run; kopt/worker/protocol.hpp -> worker; None when no module owns it."""
    for prefix, owner in PUBLIC_HEADER_OWNERS.items():
        if name == prefix or (prefix.endswith("/") and name.startswith(prefix)):
            return owner
    stem = name[:-len(".hpp")] if name.endswith(".hpp") else name
    best = None
    for module in modules:
        if stem == module or stem.startswith(module + "_"):
            if best is None or len(module) > len(best):
                best = module
    return best


PUBLIC_INCLUDE = re.compile(r'^\s*#\s*include\s+"kopt/([^"]+)"', re.MULTILINE)


def public_include_violations(modules):
    out = []
    for path in sorted((ROOT / "include" / "kopt").rglob("*.hpp")):
        name = path.relative_to(ROOT / "include" / "kopt").as_posix()
        if owner_of_public_header(name, modules) is None:
            out.append(f"unowned public kopt/{name}")
    for module in modules:
        for path in sorted((ROOT / "src" / module).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES:
                continue
            for match in PUBLIC_INCLUDE.finditer(path.read_text(errors="replace")):
                owner = owner_of_public_header(match.group(1), modules)
                if owner is None or owner == module or owner not in RANK or module not in RANK:
                    continue
                if RANK[owner] > RANK[module]:
                    out.append(f"include {module} ({LAYER_NAME[module]}) -> kopt/{match.group(1)} "
                               f"({owner}, {LAYER_NAME[owner]})")
    return sorted(set(out))


def module_of_target(target, modules):
    """kopt_worker_client -> worker; kopt_run_report -> run_report (the longest module name wins)."""
    if not target.startswith("kopt_"):
        return None
    rest = target[len("kopt_"):]
    best = None
    for module in modules:
        if rest == module or rest.startswith(module + "_"):
            if best is None or len(module) > len(best):
                best = module
    return best


def link_violations(build_dir, modules):
    with tempfile.TemporaryDirectory() as tmp:
        dot = pathlib.Path(tmp) / "kopt.dot"
        run = subprocess.run(["cmake", f"--graphviz={dot}", str(build_dir)], capture_output=True, text=True)
        if run.returncode != 0 or not dot.exists():
            raise SystemExit(f"check-layers: cmake --graphviz on {build_dir} failed:\n{run.stderr}")
        text = dot.read_text()
    names = {node: label.split("\\n")[0] for node, label in re.findall(r'"(node\d+)" \[ label = "([^"]+)"', text)}
    out = []
    for a, b in re.findall(r'"(node\d+)" -> "(node\d+)"', text):
        source, target = names.get(a, ""), names.get(b, "")
        if source.endswith("_tests"):
            continue
        from_module, to_module = module_of_target(source, modules), module_of_target(target, modules)
        if from_module is None or to_module is None or from_module == to_module:
            continue
        if from_module not in RANK or to_module not in RANK:
            continue
        if RANK[to_module] > RANK[from_module]:
            out.append(f"link {from_module} ({LAYER_NAME[from_module]}) -> {to_module} ({LAYER_NAME[to_module]})")
    return sorted(set(out))


def read_debt(path):
    if not path.exists():
        return []
    lines = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=str(ROOT / "build"), help="a configured CMake build folder")
    parser.add_argument("--debt", default=str(ROOT / "scripts" / "layer-debt.txt"), help="known violations")
    parser.add_argument("--list", action="store_true", help="print every violation and exit 0")
    args = parser.parse_args()

    modules = modules_on_disk()
    unplaced = [m for m in modules if m not in RANK]
    if unplaced:
        print(f"check-layers: modules in no layer (add them to LAYERS in {__file__}): {', '.join(unplaced)}")
        return 1
    build_dir = pathlib.Path(args.build_dir)
    if not (build_dir / "CMakeCache.txt").exists():
        print(f"check-layers: {build_dir} is not a configured build folder (run scripts/setup.sh first)")
        return 2
    violations = (include_violations(modules) + public_include_violations(modules) +
                  link_violations(build_dir, modules))
    if args.list:
        print("\n".join(violations))
        return 0
    debt = read_debt(pathlib.Path(args.debt))
    new = [v for v in violations if v not in debt]
    stale = [d for d in debt if d not in violations]
    paid = len(debt) - len(stale)
    for v in new:
        print(f"check-layers: {v}")
    for d in stale:
        print(f"check-layers: fixed, remove it from {args.debt}: {d}")
    print(f"check-layers: {len(modules)} modules in {len(LAYERS)} layers; {len(new)} new violation(s), "
          f"{paid} known (debt file), {len(stale)} stale debt line(s)")
    return 1 if new or stale else 0


if __name__ == "__main__":
    sys.exit(main())
