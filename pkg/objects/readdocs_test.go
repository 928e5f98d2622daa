package objects

import "testing"

// TestDuplicateKeyIsPlacedAtTheSecondKeyOfItsObject: a key given twice
// (which kubectl refuses) is reported at the second key, on the object
// that holds it, not at the start of its document.
func TestDuplicateKeyIsPlacedAtTheSecondKeyOfItsObject(t *testing.T) {
	data := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\n" +
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: dupkey\nspec:\n  rules:\n    - name: r\n      labels:\n        a: \"x\"\n        a: \"y\"\n"
	docs, bad := ReadDocuments([]byte(data), "m.yaml")
	if len(docs) != 1 || bad == nil {
		t.Fatalf("%d documents and problem %v, want the first document and the duplicate", len(docs), bad)
	}
	if bad.Pos.Line != 14 || bad.Pos.Column != 9 || bad.Object.Kind != "NodeFeatureRule" || bad.Object.Name != "dupkey" || bad.Pos.Index != 1 {
		t.Errorf("reported at %+v on %+v, want m.yaml:14:9 (document 1) on NodeFeatureRule/dupkey", bad.Pos, bad.Object)
	}
}
