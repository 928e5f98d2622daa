package suggest

import (
	"strings"
	"testing"
)

func TestClosestSuggestsLikelyMisspellings(t *testing.T) {
	fields := []string{"matchExpressions", "matchName", "feature"}
	tests := []struct {
		name, word string
		candidates []string
		want       string
	}{
		{"missing-plural-s", "matchExpression", fields, "matchExpressions"},
		{"case-only", "Feature", fields, "feature"},
		{"transposed-letters", "faeture", fields, "feature"},
		{"too-far-is-no-suggestion", "labels", fields, ""},
		{"op-case", "in", []string{"In", "NotIn", "Exists"}, "In"},
		{"op-typo", "Exsits", []string{"In", "NotIn", "Exists"}, "Exists"},
		{"exact-is-not-a-suggestion", "feature", []string{"feature"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Closest(tt.word, tt.candidates); got != tt.want {
				t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

// TestClosestSkipsWordsOverTheCap checks MaxWordLength just under and
// just over: a long misspelling at the cap is still compared, one byte
// more is not.
func TestClosestSkipsWordsOverTheCap(t *testing.T) {
	at := strings.Repeat("a", MaxWordLength-1)
	candidates := []string{at + "b"}
	if got := Closest(at+"c", candidates); got != at+"b" {
		t.Errorf("at the cap: Closest = %.20q..., want the candidate", got)
	}
	if got := Closest(at+"cc", []string{at + "bc"}); got != "" {
		t.Errorf("over the cap: Closest = %.20q..., want no suggestion", got)
	}
	if got := Closest("a", []string{strings.Repeat("a", MaxWordLength+1)}); got != "" {
		t.Errorf("a candidate over the cap was suggested")
	}
}

// TestClosestCostDoesNotGrowWithTheWord checks that a huge key (issue 17:
// a 9 MB key) is refused at once rather than compared.
func TestClosestCostDoesNotGrowWithTheWord(t *testing.T) {
	word := strings.Repeat("matchExpressions", 600_000)
	allocs := testing.AllocsPerRun(3, func() { Closest(word, []string{"matchExpressions", "matchName"}) })
	if allocs > 2 {
		t.Errorf("Closest on a 9 MB word allocates %v times; want it refused without work", allocs)
	}
}
