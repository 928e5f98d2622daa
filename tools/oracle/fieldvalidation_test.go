package oracle

import (
	"fmt"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// fieldValidations are the settings of a client's create: kubectl apply
// sends Strict, client-go (Helm, operators, GitOps controllers) nothing,
// which the API server takes as Warn; nfd-fn's strictFieldValidation
// picks one.
var fieldValidations = []struct {
	name   string
	strict bool
}{{"Strict", true}, {"Warn", false}}

// TestObjectsAreUsedAsTheAPIServerAdmitsThemUnderEachFieldValidation
// reads every NFD object of the corpora as render and validate do
// (pkg/objects' reader, then pkg/admission on the release's CRDs) with
// strictFieldValidation on and off, and fails where nfd-fn uses an
// object the API server refuses under that fieldValidation, or leaves
// out one it takes: under Strict an unknown field (misspelt, NFD003, or
// a newer release's, NFD301) refuses the object as a refused value does;
// under Warn it is pruned and the object taken.
func TestObjectsAreUsedAsTheAPIServerAdmitsThemUnderEachFieldValidation(t *testing.T) {
	objs, _, err := corpus(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]map[bool]int{}
	for _, line := range release.Lines() {
		rel, err := release.Parse(line.CRDs.String())
		if err != nil {
			t.Fatal(err)
		}
		server := crdsOf(t, line.CRDs.String())
		for _, o := range objs {
			want := server[o.kind].create(o.json)
			for _, fv := range fieldValidations {
				refuses := len(want.Errors) > 0 || (fv.strict && len(want.Pruned) > 0)
				if seen[fv.name] == nil {
					seen[fv.name] = map[bool]int{}
				}
				seen[fv.name][refuses]++
				if got, why := nfdfnRefuses(o, rel, fv.strict); got != refuses {
					t.Errorf("%s (%s) on %s's CRDs under fieldValidation=%s: API server refuses=%v (errors %q, unknown fields %q), nfd-fn refuses=%v (%s)",
						o.where, o.kind, line.CRDs, fv.name, refuses, want.Errors, want.Pruned, got, why)
				}
			}
		}
	}
	t.Logf("API server verdicts: %v (refused: true)", seen)
	for _, fv := range fieldValidations {
		if seen[fv.name][true] == 0 || seen[fv.name][false] == 0 {
			t.Errorf("under %s the corpus must hold objects the API server refuses and takes: %v", fv.name, seen[fv.name])
		}
	}
	if seen["Strict"][true] <= seen["Warn"][true] {
		t.Errorf("no object is refused under Strict that Warn takes: the corpus tests nothing about fieldValidation: %v", seen)
	}
}

// nfdfnRefuses reads one object as nfd-fn's modes do and reports whether
// it is left out (refused), and why: its problems.
func nfdfnRefuses(o object, rel release.Release, strict bool) (bool, string) {
	set := &objects.Set{StrictFieldValidation: strict}
	ds := set.Add(objects.Decode(o.node), objects.Origin{File: o.where, Item: -1, Node: o.node})
	ds = append(ds, admission.Admit(set, rel, strict)...)
	used := false
	for _, r := range set.Rules {
		used = used || r.Used()
	}
	for _, g := range set.Groups {
		used = used || g.Used()
	}
	for _, f := range set.Features {
		used = used || f.Used()
	}
	// A name no cluster can hold but safe to use, and a NodeFeature's
	// node-name label that is no node name, are refused for the API
	// server's purposes (metadataErrors, as the schema oracle has it).
	if meta := metadataErrors(o.node); len(meta) > 0 {
		return true, fmt.Sprint(meta)
	}
	return !used, ds.Error()
}
