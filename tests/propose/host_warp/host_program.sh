# shellcheck shell=bash disable=SC2154,SC2034  # kopt, cxx, here and root are the caller's; failed is read by it
# Shared by the host_warp checks (sourced; row_scan_test.sh, channel_map_test.sh): a strategy instantiated for a
# suite task, and a host program built from it and run. The caller sets `kopt`, `cxx`, `here` (this folder) and
# `root` (the source tree), and gets `work` (a temporary folder, removed on exit) and `failed` (0).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# instantiate TASK_DIR STRATEGY OUT: `kopt strategies --instantiate` of the tree's library into OUT, or the
# script stops with kopt's message.
instantiate() {
  local log
  if ! log=$("$kopt" strategies "$1" --strategies "$root/strategies" --instantiate "$2" -o "$3" 2>&1); then
    echo "$log" >&2
    exit 1
  fi
}

# kernel_text SOURCE: the instantiated strategy SOURCE without kopt's common header (strategies/common/strategy.cuh,
# which warp_shim.h replaces): the strategy's defines, its template and its includes.
kernel_text() {
  local end
  end=$(grep -n -m1 -E '^}  // namespace kopt_strategy' "$1" | cut -d: -f1)
  tail -n +"$((end + 1))" "$1"
}

# build_and_run PROGRAM SECONDS: compiles PROGRAM.cpp for the host (with warp_shim.h on the include path) and
# runs it; a failing run sets `failed`.
build_and_run() {
  "$cxx" -std=c++20 -O1 -fno-strict-aliasing -U_FORTIFY_SOURCE -I"$here" -o "$1" "$1.cpp"
  timeout "$2" "$1" || failed=1
}
