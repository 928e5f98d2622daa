package modes

import "testing"

// TestOutputFormatsAreTheOnesTheFlagsName: plan's --output and render's
// --output labels forms are found by the names their usage lists, and no
// other name is taken.
func TestOutputFormatsAreTheOnesTheFlagsName(t *testing.T) {
	for _, tt := range []struct {
		format string
		plan   bool
		labels bool
	}{
		{"text", true, false},
		{"markdown", true, false},
		{"json", true, false},
		{"labels", false, true},
		{"labels-json", false, true},
		{"resourcelist", false, false},
		{"Text", false, false},
	} {
		if w, ok := PlanWriter(tt.format, false); ok != tt.plan || (w != nil) != tt.plan {
			t.Errorf("PlanWriter(%q): ok %v, want %v", tt.format, ok, tt.plan)
		}
		if w, ok := LabelWriter(tt.format); ok != tt.labels || (w != nil) != tt.labels {
			t.Errorf("LabelWriter(%q): ok %v, want %v", tt.format, ok, tt.labels)
		}
	}
}
