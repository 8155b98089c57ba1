#!/usr/bin/env bash
# Compiler launcher for CUDA objects: runs the nvcc command with ptxas's
# resource report (-Xptxas -v) and writes that report, with the compile
# time, to <object>.resources. Other diagnostics pass through.
out=""
prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
report=$(mktemp)
# The processor time of nvcc and its children (user + system), not the wall
# clock: in a parallel build the wall clock also counts the other jobs that
# share the cores, while this is what the unit costs on a core of its own.
cpu=$(mktemp)
TIMEFORMAT='%U %S'
{ time "$@" -Xptxas -v 2>"$report"; } 2>"$cpu"
rc=$?
if [ -n "$out" ] && [ $rc -eq 0 ]; then
  {
    echo "compile-seconds: $(awk '{ printf "%.1f", $1 + $2 }' "$cpu")"
    grep -E '^ptxas info|^    [0-9]+ bytes stack frame' "$report"
  } >"$out.resources"
fi
grep -vE '^ptxas info|^    [0-9]+ bytes stack frame' "$report" >&2
rm -f "$report" "$cpu"
exit $rc
