#!/usr/bin/env bash
# Fuzzes each target given as PKG:Target (make fuzz passes FUZZ_TARGETS),
# one after the other, for FUZZTIME each; a target written PKG:Target@N
# gets N times FUZZTIME (a slow harness's longer share). Every target runs
# even when an earlier one fails; a failure keeps its input under the
# package's testdata/fuzz (go test does that) and makes the script exit 1
# at the end; Go 1.26's race at the end of -fuzztime (coordinator_race) is
# said, not failed. The last lines say how many executions each target
# reached.
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

# coordinator_race says whether a failed run's log is only Go's fuzzing
# coordinator racing its own -fuzztime deadline (go.dev/issue/75804: on a
# loaded machine the deadline reaches the coordinator before its workers,
# and the target fails with "context deadline exceeded" at exactly
# FUZZTIME): that message as the failure, and no failing input written.
# A real finding always writes its input under testdata/fuzz, and a hang
# is reported as such.
coordinator_race() {
  grep -qx '    context deadline exceeded' "$1" &&
    ! grep -q 'Failing input written to\|panic:\|hung or terminated' "$1"
}
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
    if coordinator_race "$log"; then
      result="ok (go#75804)"
      echo "note: $name stopped with Go 1.26's fuzzing race at the end of -fuzztime (go.dev/issue/75804, fixed in Go 1.27): no input failed, none was written"
    else
      result="FAILED"
      failed=1
    fi
  fi
  summary+=("$(printf '%-45s %-6s %10s execs in %s' "$pkg:$name" "$result" "${execs:-?}" "$time")")
done
echo
echo "fuzzing summary:"
printf '  %s\n' "${summary[@]}"
exit "$failed"
