package fn

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// InfoResultCap is how many info results of one kind a ResourceList's
// results hold: what each node gets (nodeOutput labels), and notes (info
// results of the checks). kpt v1.0.0-beta.62 and later write every
// function's results, info included, into the Kptfile
// (status.renderStatus), so they get committed: above the cap, the
// nodes' results give way to one summary, and the notes past the cap to
// one that counts them. Results asked for by name (explain, plan) are not
// capped; nor is any other output (text, JSON, SARIF, labels tables).
const InfoResultCap = 20

// requested are the checks whose info results are the output asked for.
var requested = map[string]bool{"explain": true, "plan": true}

// isNote reports an info result of a check other than those requested.
func isNote(d *diag.Diagnostic) bool {
	return d.Severity == diag.Info && d.Check != "" && !requested[d.Check]
}

// capNotes keeps the first InfoResultCap notes of l and counts the rest
// in one more; a single note past the cap is kept, as it says more than
// a count of it would.
func capNotes(l diag.List) diag.List {
	notes := 0
	for i := range l {
		if isNote(&l[i]) {
			notes++
		}
	}
	if notes <= InfoResultCap+1 {
		return l
	}
	out := make(diag.List, 0, len(l)-notes+InfoResultCap+1)
	left := map[string]int{}
	kept := 0
	for i := range l {
		switch {
		case !isNote(&l[i]):
			out = append(out, l[i])
		case kept < InfoResultCap:
			kept++
			out = append(out, l[i])
		default:
			left[l[i].Check]++
		}
	}
	var parts []string
	for _, check := range slices.Sorted(maps.Keys(left)) {
		parts = append(parts, fmt.Sprintf("%s %d", check, left[check]))
	}
	return append(out, diag.Diagnostic{Severity: diag.Info, Message: fmt.Sprintf(
		"and %s left out of the results, which hold at most %d (kpt commits them to the Kptfile): %s; nfd-fn validate on the package lists them all",
		diag.Plural(notes-InfoResultCap, "more note"), InfoResultCap, strings.Join(parts, ", "))})
}
