#!/usr/bin/env bash
# Compiler launcher for CUDA objects: runs the nvcc command with ptxas's
# resource report (-Xptxas -v) and writes that report, with the wall-clock
# compile time, to <object>.resources. Other diagnostics pass through.
out=""
prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
report=$(mktemp)
start=$(date +%s.%N)
"$@" -Xptxas -v 2>"$report"
rc=$?
end=$(date +%s.%N)
if [ -n "$out" ] && [ $rc -eq 0 ]; then
  {
    echo "compile-seconds: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
    grep -E '^ptxas info|^    [0-9]+ bytes stack frame' "$report"
  } >"$out.resources"
fi
grep -vE '^ptxas info|^    [0-9]+ bytes stack frame' "$report" >&2
rm -f "$report"
exit $rc
