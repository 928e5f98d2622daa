package diag

import (
	"fmt"
	"testing"
)

func TestFoldObjectsGivesOneVerdictForAProblemManyObjectsShare(t *testing.T) {
	var l List
	for i := range 3300 {
		l = append(l, Diagnostic{Severity: Error, Check: "schema", Object: ObjectRef{Kind: "NodeFeature", Name: fmt.Sprint("n", i)},
			Field: "spec.features", Pos: Position{File: "snap.yaml", Line: 10 + 11*i}, Message: "Required value"})
	}
	few := Diagnostic{Severity: Error, Check: "schema", Object: ObjectRef{Kind: "NodeFeatureRule", Name: "r"}, Field: "spec", Message: "other"}
	l = append(l, few, Diagnostic{Severity: Warning, Message: "about no object"})
	got := l.FoldObjects()
	if len(got) != 3 {
		t.Fatalf("FoldObjects left %d diagnostics, want 3: %v", len(got), got)
	}
	if want := "NFD002 on 3,300 NodeFeatures, first at snap.yaml:10: Required value"; got[0].Message != want || got[0].Object.Name != "n0" {
		t.Errorf("folded = %q on %v, want %q on n0", got[0].Message, got[0].Object, want)
	}
	if got[1].Message != "other" || got[2].Message != "about no object" {
		t.Errorf("the others changed: %v", got[1:])
	}
	if short := l[:FoldFrom-1].FoldObjects(); len(short) != FoldFrom-1 || short[0].Message != "Required value" {
		t.Errorf("%d objects were folded: %v", FoldFrom-1, short)
	}
}

// The API server's words name the object ("NodeFeature.nfd.k8s-sigs.io
// "n7" is invalid: ..."): objects that share the problem still fold, the
// verdict quoting the first one's words.
func TestFoldObjectsFoldsMessagesThatNameTheirObject(t *testing.T) {
	var l List
	for i := range 60 {
		name := fmt.Sprint("n", i)
		l = append(l, Diagnostic{Severity: Error, Check: "schema", Object: ObjectRef{Kind: "NodeFeature", Name: name},
			Field: "spec.x", Pos: Position{File: "snap.yaml", Line: 1 + 10*i},
			Message: fmt.Sprintf("NodeFeature.nfd.k8s-sigs.io %q is invalid: spec.x: Invalid value", name)})
	}
	got := l.FoldObjects()
	if len(got) != 1 {
		t.Fatalf("FoldObjects left %d diagnostics, want 1", len(got))
	}
	if want := `NFD002 on 60 NodeFeatures, first at snap.yaml:1: NodeFeature.nfd.k8s-sigs.io "n0" is invalid: spec.x: Invalid value`; got[0].Message != want {
		t.Errorf("folded = %q, want %q", got[0].Message, want)
	}
}
