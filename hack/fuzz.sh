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
# Fuzzing needs a test binary with coverage instrumentation: go test -fuzz
# compiles every package the test imports (but runtime, sync, reflect,
# testing, time and a few more) with it, so nothing of the plain test
# build's cache is reused but those few. What can be shared is the fuzz
# build itself: each package's instrumented test binary is built once
# (go test -c -fuzz=.) and every target of the package runs from it, in
# the package's folder (its testdata/fuzz) with go test's fuzz cache, as
# go test -fuzz would run it. That is one link per package instead of
# one go test per target (warm cache: 0.8 s a target from the binary
# against 8 s for go test -fuzz, on a loaded 2-core machine).
set -uo pipefail
fuzztime=${FUZZTIME:-1m}
minimize=${FUZZMINIMIZETIME:-100x}
log=$(mktemp)
bins=$(mktemp -d)
trap 'rm -rf "$log" "$bins"' EXIT
summary=()
failed=0
fuzzcache=$(go env GOCACHE)/fuzz

# fuzz_binary prints the path of PKG's instrumented test binary, built
# the first time it is asked for; it fails when the package does not
# build (go test's errors on stderr).
declare -A built
fuzz_binary() {
  local pkg=$1 bin
  bin="$bins/$(printf '%s' "$pkg" | tr -c 'A-Za-z0-9' '_').test"
  if [ -z "${built[$pkg]:-}" ]; then
    go test -c -fuzz=. -o "$bin" "$pkg" >&2 || return 1
    built[$pkg]=1
  fi
  printf '%s\n' "$bin"
}

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
  if bin=$(fuzz_binary "$pkg" 2>"$log") && dir=$(go list -f '{{.Dir}}' "$pkg" 2>>"$log") &&
    importpath=$(go list -f '{{.ImportPath}}' "$pkg" 2>>"$log"); then
    # As go test -fuzz runs it: in the package's folder, with go test's
    # default timeout and its fuzz cache.
    (cd "$dir" && "$bin" -test.run='^$' -test.fuzz="^$name\$" -test.fuzztime="$time" -test.fuzzminimizetime="$minimize" \
      -test.timeout=10m -test.paniconexit0 -test.fuzzcachedir="$fuzzcache/$importpath") 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
  else
    cat "$log"
    status=1
  fi
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
