package modes

import (
	"io"
	"testing"
)

// TestOutputFormsAreTheOnesTheFlagsName: plan's --output and render's
// --output labels forms are found by the names their usage lists, and no
// other name is taken (a form missing from the table fails closed).
func TestOutputFormsAreTheOnesTheFlagsName(t *testing.T) {
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
		{"", false, false},
	} {
		if o, ok := PlanOutputs(false).Find(tt.format); ok != tt.plan || (o.Write != nil) != tt.plan {
			t.Errorf("PlanOutputs.Find(%q): ok %v, want %v", tt.format, ok, tt.plan)
		}
		if o, ok := LabelOutputs.Find(tt.format); ok != tt.labels || (o.Write != nil) != tt.labels {
			t.Errorf("LabelOutputs.Find(%q): ok %v, want %v", tt.format, ok, tt.labels)
		}
	}
}

// TestOutputFormsAreListedForTheMessage: the names as a usage message
// lists them, in the table's order.
func TestOutputFormsAreListedForTheMessage(t *testing.T) {
	for _, tt := range []struct {
		name string
		got  string
		want string
	}{
		{"plan", PlanOutputs(false).Want(), "text, markdown, json, github or junit"},
		{"labels", LabelOutputs.Want(), "labels or labels-json"},
		{"one-form", Outputs[func(io.Writer) error]{{Name: "text"}}.Want(), "text"},
		{"no-form", Outputs[func(io.Writer) error]{}.Want(), ""},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
