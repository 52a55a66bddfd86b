#!/usr/bin/env bash
# Captures real H200 fixtures for the profile parsers and the analysis tools (issue #4): builds
# analysis_kernels.cu, runs it under Nsight Compute (clocks never locked: --clock-control none) in the
# three output shapes kopt must parse, and disassembles it. Output in ${OUT:-capture-out}.
#   bash bench/analysis_capture/capture.sh
set -uo pipefail
cd "$(dirname "$0")"
O="${OUT:-$PWD/capture-out}"; mkdir -p "$O"
export PATH=/usr/local/cuda/bin:$PATH
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
BIN=${ANALYSIS_KERNELS_BIN:-$O/analysis_kernels}
[ -x "$BIN" ] || nvcc -O3 -arch=sm_90 -Xptxas -v -o "$BIN" analysis_kernels.cu 2> "$O/ptxas.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv > "$O/machine.txt"
"$NCU" --version >> "$O/machine.txt"
# 1. Full set, raw page, one row per kernel, in a log file (kopt's own invocation shape).
"$NCU" --clock-control none --set full --csv --page raw --print-units base --log-file "$O/full_raw.csv" "$BIN" > "$O/full_app_stdout.txt" 2>&1
# 2. A short metric list without --log-file: ==PROF== lines and the application's output mixed in.
M=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum,launch__grid_size,launch__waves_per_multiprocessor
"$NCU" --clock-control none --metrics "$M" --csv --page raw --print-units base "$BIN" > "$O/mixed_stdout.csv" 2>&1
# 3. Long format (one row per metric) of the speed-of-light section.
"$NCU" --clock-control none --section SpeedOfLight --csv "$BIN" > "$O/long_sol.csv" 2>&1
# 4. Rule output, for reference.
"$NCU" --clock-control none --set full --page details --print-details all -k regex:'^(strided_copy|bank_conflicts)' "$BIN" > "$O/details.txt" 2>&1
# 5. SASS, both disassemblers.
cuobjdump -sass "$BIN" > "$O/cuobjdump_sass.txt" 2>&1
cuobjdump -xelf all "$BIN" > /dev/null 2>&1 && for f in *.cubin; do nvdisasm -c "$f" > "$O/nvdisasm_${f%.cubin}.txt" 2>&1; rm -f "$f"; done
ls -la "$O"
