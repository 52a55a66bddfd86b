#!/usr/bin/env bash
# Same-device A/B of the strategy library: `kopt bench` on the same tasks twice in one call on one GPU, once
# with the strategies of an earlier commit and once with the tree's, then a table of each task and size case:
# the two confirm-tier medians, their ratio and the two strategies. Kernels changed between two commits are
# compared on the same card, clocks and driver, which figures from two device calls cannot promise (a run on
# an H100 and one on an H200 differ by far more than most kernel changes).
#
#   scripts/ab-bench.sh --prepare REV                 # on the CPU machine: REV's strategies into .carry/ab-strategies
#   scripts/ab-bench.sh [--bin DIR] [--out DIR] -- BENCH_ARGS...
#                                                     # on the GPU host: kopt bench BENCH_ARGS with each library
#   scripts/ab-bench.sh [--out DIR] --table           # the table again from DIR/old and DIR/new
#
# Example (carry .carry/bin and .carry/ab-strategies with the call):
#   scripts/ab-bench.sh --prepare d237791~1
#   scripts/ab-bench.sh --bin .carry/bin -- suites/ --filter avgpool2d --filter batchnorm- --budget 6
# Exit status: 0 when both benches ran, 2 for bad arguments, else the failing bench's.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

old_lib=.carry/ab-strategies
table_only=0
bin=build/bin
out=ab-bench
while [[ $# -gt 0 ]]; do
  case $1 in
    --prepare)
      [[ $# -ge 2 ]] || usage
      rm -rf "$old_lib" && mkdir -p "$old_lib"
      git archive "$2" strategies | tar -x -C "$old_lib"
      git rev-parse --short "$2" >"$old_lib/REV"
      echo "ab-bench: the strategies of $(cat "$old_lib/REV") are in $old_lib/strategies; carry it with the call"
      exit 0
      ;;
    --bin) [[ $# -ge 2 ]] || usage; bin=$2; shift 2 ;;
    --out) [[ $# -ge 2 ]] || usage; out=$2; shift 2 ;;
    --table) table_only=1; shift ;;
    --) shift; break ;;
    -h | --help) usage ;;
    *) echo "ab-bench: unknown argument '$1'; expected --prepare REV, --bin DIR, --out DIR or -- BENCH_ARGS" >&2; exit 2 ;;
  esac
done
if [[ $table_only == 0 ]]; then
  [[ $# -gt 0 ]] || usage
  [[ -d $old_lib/strategies ]] || { echo "ab-bench: no $old_lib/strategies; run --prepare REV first" >&2; exit 2; }
  [[ -x $bin/kopt ]] || { echo "ab-bench: no kopt in $bin (expected --bin DIR)" >&2; exit 2; }

  mkdir -p "$out"
  # One store per side, so that nothing measured with one library is reused by the other.
  for side in old new; do
    lib=$PWD/strategies
    [[ $side == old ]] && lib=$PWD/$old_lib/strategies
    echo "ab-bench: $side library ($lib)"
    KOPT_STRATEGIES=$lib "$bin/kopt" bench "$@" --store "$out/$side.db" --out "$out/$side"
  done
fi

python3 - "$out" "$(cat "$old_lib/REV" 2>/dev/null || echo '(unknown)')" <<'EOF'
import json
import sys

out, rev = sys.argv[1], sys.argv[2]
rows = {side: {(r["task"], r["size"]): r for r in json.load(open(f"{out}/{side}/bench.json"))["rows"]}
        for side in ("old", "new")}
print(f"\nA/B on one GPU: old = the strategies of {rev}, new = the tree's; ratio = old / new (> 1: new is faster)\n")
print("| task | size | old | new | ratio | old strategy | new strategy |")
print("|---|---|---:|---:|---:|---|---|")
for key in sorted(set(rows["old"]) | set(rows["new"])):
    o, n = rows["old"].get(key), rows["new"].get(key)
    def us(r):
        return f"{r['best_us']:.1f} µs" if r and r.get("best_us") else (r or {}).get("status", "-")
    ratio = f"{o['best_us'] / n['best_us']:.3f}x" if o and n and o.get("best_us") and n.get("best_us") else "-"
    print(f"| {key[0]} | {key[1]} | {us(o)} | {us(n)} | {ratio} | {(o or {}).get('strategy', '-')} | "
          f"{(n or {}).get('strategy', '-')} |")
EOF
