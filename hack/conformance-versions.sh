#!/usr/bin/env bash
# Scores nfd-fn against the per-release version cases: for each release it
# builds temporary case dirs (input.yaml with data.nfdVersion set in the
# ConfigMap functionConfig, expected.json from expected-<release>.json) and
# runs the shared conformance checker over them.
# Usage: hack/conformance-versions.sh BIN CASES_DIR TOOLS_DIR [release=nfdVersion ...]
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cases=$(cd "$2" && pwd)
tools=$(cd "$3" && pwd)
shift 3
releases=("$@")
if [ ${#releases[@]} -eq 0 ]; then
	releases=(v0.16=v0.16.9 v0.17=v0.17.1 v0.18=v0.18.3 v0.19=v0.19.0 openshift-5.0=openshift-5.0)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for pair in "${releases[@]}"; do
	rel=${pair%%=*} ver=${pair#*=}
	dir=$tmp/$rel
	for c in "$cases"/case-*; do
		[ -f "$c/expected-$rel.json" ] || continue
		mkdir -p "$dir/$(basename "$c")"
		cp "$c/expected-$rel.json" "$dir/$(basename "$c")/expected.json"
		# The functionConfig's data is "data: {}" or a block map; set nfdVersion first in it.
		awk -v v="$ver" '
			!done && /^  data: \{\}$/ { print "  data:"; print "    nfdVersion: " v; done=1; next }
			!done && /^  data:$/ { print; print "    nfdVersion: " v; done=1; next }
			{ print }' "$c/input.yaml" > "$dir/$(basename "$c")/input.yaml"
	done
	printf '%-14s ' "$rel ($ver):"
	if out=$(cd "$tools" && go run ./conformance -bin "$bin" -cases "$dir" 2>&1); then :; else status=1; fi
	printf '%s\n' "$out" | grep -v '^exit status' | tac | paste -sd' ' 
done
exit $status
