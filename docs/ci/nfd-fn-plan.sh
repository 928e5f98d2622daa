#!/bin/sh
# nfd-fn-plan.sh BASE_REF RULES [nfd-fn plan arguments...]
#
# Prints, as Markdown for a pull-request comment, what the rule change
# between BASE_REF and the working tree does to the fleet and its
# workloads: RULES (a directory or file, relative to the repository root)
# as checked out now is the head side, RULES at BASE_REF the base side.
# The remaining arguments go to nfd-fn plan: the snapshot, --workloads,
# --config. Run it from the repository root with nfd-fn on PATH.
#
# Exit status is nfd-fn plan --detailed-exitcode's: 0 no change, 2
# changes, 1 errors (a broken rule, a workload left with no node, and
# also a mistyped path, an unknown flag or a bad --output: under
# --detailed-exitcode nothing but a plan with changes exits 2), so a job
# that fails on 1 alone never posts an empty plan as green.
set -u
if [ $# -lt 2 ]; then
	echo "usage: $0 BASE_REF RULES [nfd-fn plan arguments...]" >&2
	exit 1
fi
base_ref=$1
rules=$2
shift 2

tmp=$(mktemp -d)
base="$tmp/base"
cleanup() {
	git worktree remove --force "$base" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
git worktree add --quiet --detach "$base" "$base_ref" || exit 1
# Rules the change adds for the first time have no base: an empty one.
mkdir -p "$base/$rules" 2>/dev/null || true

nfd-fn plan --base "$base/$rules" --output markdown --detailed-exitcode "$rules" "$@"
code=$?
exit $code
