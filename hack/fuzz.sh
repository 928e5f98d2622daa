#!/usr/bin/env bash
# Fuzzes each target given as PKG:Target (make fuzz passes FUZZ_TARGETS),
# one after the other, for FUZZTIME each; a target written PKG:Target@N
# gets N times FUZZTIME (a slow harness's longer share). Every target runs
# even when an earlier one fails; a failure keeps its input under the
# package's testdata/fuzz (go test does that) and makes the script exit 1
# at the end. The last lines say how many executions each target reached.
#
# go test -fuzz builds a test binary with coverage instrumentation, which
# the plain test build cannot provide; the instrumented packages are the
# same for every target, so the first target compiles them into the build
# cache and the others link only.
set -uo pipefail
fuzztime=${FUZZTIME:-1m}
minimize=${FUZZMINIMIZETIME:-100x}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=()
failed=0
for target in "$@"; do
  pkg=${target%%:*}
  name=${target#*:}
  share=1
  if [[ $name == *@* ]]; then
    share=${name#*@}
    name=${name%%@*}
  fi
  time=$fuzztime
  if [ "$share" != 1 ]; then
    # FUZZTIME is a Go duration such as 20s or 1m: scale its number.
    time="$(( ${fuzztime%%[a-z]*} * share ))${fuzztime##*[0-9]}"
  fi
  echo "fuzzing $name in $pkg for $time"
  go test -run '^$' -fuzz "^$name\$" -fuzztime "$time" -fuzzminimizetime "$minimize" "$pkg" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  result="ok"
  if [ "$status" -ne 0 ]; then
    result="FAILED"
    failed=1
  fi
  summary+=("$(printf '%-45s %-6s %10s execs in %s' "$pkg:$name" "$result" "${execs:-?}" "$time")")
done
echo
echo "fuzzing summary:"
printf '  %s\n' "${summary[@]}"
exit "$failed"
