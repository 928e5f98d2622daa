package suggest

import "testing"

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
