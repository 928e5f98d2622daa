package oracle

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
	"github.com/nfd-fn/nfd-fn/tools/internal/corpus"
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
	objs, _, err := corpus.Collect(repoRoot)
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
			want := server[o.Kind].create(o.JSON)
			for _, fv := range fieldValidations {
				refuses := len(want.Errors) > 0 || (fv.strict && len(want.Pruned) > 0)
				if seen[fv.name] == nil {
					seen[fv.name] = map[bool]int{}
				}
				seen[fv.name][refuses]++
				if got, why := nfdfnRefuses(o, rel, fv.strict); got != refuses {
					t.Errorf("%s (%s) on %s's CRDs under fieldValidation=%s: API server refuses=%v (errors %s, unknown fields %s), nfd-fn refuses=%v (%s)",
						o.Where, o.Kind, line.CRDs, fv.name, refuses, cut(fmt.Sprint(want.Errors)), cut(fmt.Sprint(want.Pruned)), got, cut(why.Error()))
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
func nfdfnRefuses(o corpus.Object, rel release.Release, strict bool) (bool, diag.List) {
	set := &objects.Set{StrictFieldValidation: strict}
	ds := set.Add(objects.Decode(o.Node), objects.Origin{File: o.Where, Item: -1, Node: o.Node})
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
	if meta := corpus.MetadataErrors(o.Node); len(meta) > 0 {
		return true, append(ds, diag.Diagnostic{Message: fmt.Sprint(meta)})
	}
	return !used, ds
}

// cut shortens a message for a test's failure: the corpus holds a
// megabyte-long key.
func cut(s string) string {
	if len(s) > 400 {
		return s[:400] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return s
}

// TestRefusalsReadAsTheAPIServerWritesThem: nfd-fn's findings (what
// validate, plan's "would refuse" and explain print) quote what the API
// server answers a create under each fieldValidation (serverSays).
func TestRefusalsReadAsTheAPIServerWritesThem(t *testing.T) {
	objs, _, err := corpus.Collect(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	quoted, typed := 0, 0
	for _, line := range release.Lines() {
		rel, _ := release.Parse(line.CRDs.String())
		server := crdsOf(t, line.CRDs.String())
		for _, o := range objs {
			want := server[o.Kind].create(o.JSON)
			if len(corpus.MetadataErrors(o.Node)) > 0 || len(want.Fields) < len(want.Errors) {
				continue // names, and refusals while decoding, are nfd-fn's own words
			}
			for _, fv := range fieldValidations {
				_, found := nfdfnRefuses(o, rel, fv.strict)
				text := found.Error()
				for _, s := range serverSays(want, fv.strict, decodingRefuses(found)) {
					if !strings.Contains(text, s) {
						t.Errorf("%s (%s) on %s's CRDs under fieldValidation=%s: the API server says %q; nfd-fn's findings do not:\n%s",
							o.Where, o.Kind, line.CRDs, fv.name, cut(s), cut(text))
					}
					quoted++
					if strings.Contains(s, " in body must be of type ") {
						typed++
					}
				}
			}
		}
	}
	if quoted == 0 || typed == 0 {
		t.Errorf("the corpus holds no refusal to compare (%d), or none for a value of the wrong type (%d)", quoted, typed)
	}
	t.Logf("%d refusals in the API server's words, %d of them for a value of the wrong type", quoted, typed)
}

// decodingRefuses reports findings where nfd-fn's reader refuses the
// object for a value of the wrong type (check schema, NFD002).
func decodingRefuses(ds diag.List) bool {
	for _, d := range ds {
		if d.Check == "schema" && d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// serverSays is what the API server answers a create, as far as nfd-fn
// quotes it: under Strict, an object with unknown fields fails while
// decoding, with the strict decoding error of each field
// (`strict decoding error: unknown field "spec.rules[0].lables"`);
// otherwise each field error of the schema validator
// (`spec.rules[0].name: Required value`), only those for a value of the
// wrong type (`spec.rules[0].labels.a: Invalid value: "boolean": ... in
// body must be of type string: "boolean"`) when nfd-fn's reader refuses
// the object for one (NFD002) before its schema is checked, and under
// Warn a warning per unknown field (`unknown field "spec.rules[0].lables"`).
// Paths past 256 bytes are cut in nfd-fn's messages and not compared.
func serverSays(v serverVerdict, strict, typeRefused bool) []string {
	var out []string
	for _, p := range v.Pruned {
		switch {
		case len(p) > 256:
		case strict:
			out = append(out, runtime.NewStrictDecodingError([]error{fmt.Errorf("unknown field %q", p)}).Error())
		default:
			out = append(out, fmt.Sprintf("unknown field %q", p))
		}
	}
	if strict && len(v.Pruned) > 0 {
		return out
	}
	for _, e := range v.Errors {
		if !typeRefused || strings.Contains(e, " in body must be of type ") {
			out = append(out, e)
		}
	}
	return out
}
