package krm

import "testing"

// TestLineClosesKnowsWhereScalarsAndFlowCollectionsStart: a quote or
// bracket opens something only where a scalar starts; a line that leaves
// a quoted scalar or flow collection open is one a text edit cannot be
// sure of (the fuzz finds: a"  "… over lines, s: {… over lines).
func TestLineClosesKnowsWhereScalarsAndFlowCollectionsStart(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{`  name: plain`, true},
		{`  description: the "raw" data, it's kept`, true},
		{`            k:{"uid":"0a0b"}: {}`, true},
		{`  labels: {a: "1", b: '2', c: [x, y]}`, true},
		{`  - "quoted" # a comment with " and {`, true},
		{`  note: 'it''s' `, true},
		{`  a": "`, false},
		{`  s: {nfd.node.kubernetes.io/node-n`, false},
		{`  name: "one`, false},
		{`  name: &a "multi`, false},
		{`  name: !!str 'multi`, false},
		{`- [x,`, false},
		{`  x: }`, false},
		{`  x: a - "b`, true}, // the quote is a plain scalar's character
		{`  x: "a\"b"`, true},
	}
	for _, tt := range tests {
		if got := lineCloses([]byte(tt.line)); got != tt.want {
			t.Errorf("lineCloses(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestQuotesCloseSkipsBlockScalarText(t *testing.T) {
	lines := splitLines([]byte("metadata:\n  annotations:\n    last: |\n      {\"apiVersion\":\n        \"v1\"}\n    next: x\n"))
	if !quotesClose(lines) {
		t.Error("a block scalar's text was read as YAML")
	}
	lines = splitLines([]byte("metadata:\n  annotations:\n    last: |\n      text\n    next: \"open\n"))
	if quotesClose(lines) {
		t.Error("the line after a block scalar was not read")
	}
	// A block scalar's line that reads as a comment: an edit would take
	// it for one and insert before it, inside the scalar (a FuzzCutFile
	// find).
	lines = splitLines([]byte("data:\n  conf: |\n    a: 1\n    # a comment in the text\n"))
	if quotesClose(lines) {
		t.Error("a block scalar ending in a comment-like line was taken as sure")
	}
}
