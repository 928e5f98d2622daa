package fn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// notes makes n info results of check, numbered.
func notes(check string, n int) diag.List {
	var l diag.List
	for i := range n {
		l = append(l, diag.Diagnostic{Severity: diag.Info, Check: check, Message: fmt.Sprintf("%s %d", check, i)})
	}
	return l
}

// TestCapNotesCountsThoseAboveTheCapInOne is issue 38's point 4 (notes):
// a ResourceList's results hold at most InfoResultCap notes and one that
// counts the rest by check; errors, warnings and the results asked for
// (explain, plan) are all kept, in order.
func TestCapNotesCountsThoseAboveTheCapInOne(t *testing.T) {
	errorsAndAsked := append(diag.List{{Severity: diag.Error, Check: "unknown-field", Message: "e"}, {Severity: diag.Warning, Check: "w", Message: "w"}}, notes("explain", 30)...)
	tests := []struct {
		name    string
		in      diag.List
		want    int
		summary string
	}{
		{"at-the-cap", notes("other-kind", InfoResultCap), InfoResultCap, ""},
		{"one-past-the-cap-is-kept", notes("other-kind", InfoResultCap+1), InfoResultCap + 1, ""},
		{"past-the-cap-counted-by-check", append(notes("other-kind", InfoResultCap), append(notes("api-version-alias", 3), notes("other-kind", 2)...)...),
			InfoResultCap + 1, "and 5 more notes left out of the results, which hold at most 20 (kpt commits them to the Kptfile): api-version-alias 3, other-kind 2; nfd-fn validate on the package lists them all"},
		{"errors-and-asked-for-infos-uncapped", append(errorsAndAsked, notes("other-kind", InfoResultCap+2)...), len(errorsAndAsked) + InfoResultCap + 1, "and 2 more notes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := capNotes(tc.in)
			if len(got) != tc.want {
				t.Fatalf("%d results, want %d", len(got), tc.want)
			}
			if last := got[len(got)-1].Message; tc.summary != "" && !strings.HasPrefix(last, tc.summary) {
				t.Errorf("last result %q, want it to start %q", last, tc.summary)
			}
			if !strings.Contains(tc.name, "errors") {
				return
			}
			for i, d := range errorsAndAsked {
				if got[i].Message != d.Message {
					t.Errorf("result %d is %q, want %q kept in place", i, got[i].Message, d.Message)
				}
			}
		})
	}
}

// TestNodeOutputLabelsResultsBecomeOneAboveTheCap is issue 38's point 4
// (nodeOutput labels): up to InfoResultCap nodes, one info result per node
// says what it gets; above, one result counts the nodes instead.
func TestNodeOutputLabelsResultsBecomeOneAboveTheCap(t *testing.T) {
	for _, nodes := range []int{InfoResultCap, InfoResultCap + 1} {
		t.Run(fmt.Sprint(nodes, "-nodes"), func(t *testing.T) {
			var items []string
			for i := range nodes {
				items = append(items, kernelSixFeature(fmt.Sprintf("node-%02d", i)))
			}
			out, code := testkit.Run(t, runWith(RunOptions{}), []byte(listOf("nodeOutput: labels", items...)))
			results := testkit.Read(t, out).Texts()
			if code != 0 {
				t.Fatalf("exit %d: %v", code, results)
			}
			if nodes <= InfoResultCap {
				if len(results) != nodes || !strings.HasPrefix(results[0], "info: gets ") {
					t.Errorf("want one result per node, got %d: %v", len(results), results)
				}
				return
			}
			want := fmt.Sprintf("info: %d nodes rendered, 0 getting something from NFD and %d nothing; what each gets is left out of the results above %d nodes", nodes, nodes, InfoResultCap)
			if len(results) != 1 || !strings.HasPrefix(results[0], want) {
				t.Errorf("want one result starting %q, got %v", want, results)
			}
		})
	}
}
