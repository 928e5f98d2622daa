package oracle

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/release"
	"github.com/nfd-fn/nfd-fn/tools/internal/corpus"
)

// repoRoot is the project's checkout, whose testdata the oracle reads.
const repoRoot = "../.."

// TestAdmissionAgreesWithTheAPIServer creates every NFD object of the
// project's testdata and fuzz corpora on each release's CRDs through the
// API server's own create path and fails where pkg/admission's verdict
// differs: refused whole (Errors; nfd-fn's Problems), and the unknown
// fields pruned under fieldValidation Warn or Ignore and refusing the
// object under Strict (Pruned; nfd-fn's Pruned).
func TestAdmissionAgreesWithTheAPIServer(t *testing.T) {
	objs, skipped, err := corpus.Collect(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d NFD objects, %d documents no client could send", len(objs), skipped)
	var refused, pruned, accepted int
	for _, line := range release.Lines() {
		server := crdsOf(t, line.CRDs.String())
		for _, o := range objs {
			want := server[o.Kind].create(o.JSON)
			s, err := admission.SchemaFor(release.Version{Minor: line.Minor}, o.Kind)
			if err != nil || s == nil {
				t.Fatalf("pkg/admission has no %s schema for %s: %v", o.Kind, line.CRDs, err)
			}
			got := admission.Check(s, o.Node)
			if diff := compare(want, got, corpus.MetadataErrors(o.Node)); diff != "" {
				t.Errorf("%s (%s) on %s's CRDs: %s", o.Where, o.Kind, line.CRDs, diff)
			}
			switch {
			case len(want.Errors) > 0:
				refused++
			case len(want.Pruned) > 0:
				pruned++
			default:
				accepted++
			}
		}
	}
	t.Logf("API server verdicts over %d releases: %d refused, %d pruned, %d accepted", len(release.Lines()), refused, pruned, accepted)
	if refused == 0 || pruned == 0 || accepted == 0 || len(objs) < 100 {
		t.Errorf("the corpus must hold objects the API server refuses, prunes and accepts (%d, %d, %d of %d objects)", refused, pruned, accepted, len(objs))
	}
}

// compare names how nfd-fn's verdict differs from the API server's: its
// schema verdict (pkg/admission) with the metadata errors its object
// reader (pkg/objects) reports for every object it reads; where both
// refuse an object for its schema, they must name the same fields.
func compare(want serverVerdict, got admission.Verdict, metadata []string) string {
	var diffs []string
	if w, g := len(want.Errors) > 0, got.Rejected() || len(metadata) > 0; w != g {
		diffs = append(diffs, fmt.Sprintf("API server refuses=%v (%s), nfd-fn refuses=%v (%s)", w, strings.Join(want.Errors, "; "), g, problems(got, metadata)))
	}
	if len(metadata) == 0 && len(want.Errors) > 0 && got.Rejected() {
		wantFields := slices.Compact(slices.Sorted(slices.Values(want.Fields)))
		var gotFields []string
		for _, p := range got.Problems {
			gotFields = append(gotFields, p.Field)
		}
		if gotFields = slices.Compact(slices.Sorted(slices.Values(gotFields))); !slices.Equal(wantFields, gotFields) {
			diffs = append(diffs, fmt.Sprintf("API server refuses fields %q (%s), nfd-fn refuses %q", wantFields, strings.Join(want.Errors, "; "), gotFields))
		}
	}
	gotPruned := slices.Sorted(slices.Values(got.Pruned))
	if !slices.Equal(want.Pruned, gotPruned) {
		diffs = append(diffs, fmt.Sprintf("API server prunes %q, nfd-fn prunes %q", want.Pruned, gotPruned))
	}
	return strings.Join(diffs, "; ")
}

func problems(v admission.Verdict, metadata []string) string {
	out := metadata
	for _, p := range v.Problems {
		out = append(out, p.String())
	}
	return strings.Join(out, "; ")
}

// crdsOf serves the CRDs pkg/admission embeds for tag.
func crdsOf(t *testing.T, tag string) map[string]*served {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "pkg/admission/crds", "nfd-api-crds-"+tag+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkNoCEL(data); err != nil {
		t.Fatalf("%s: %v", tag, err)
	}
	byVersion, err := loadCRDs(data)
	if err != nil {
		t.Fatalf("%s: %v", tag, err)
	}
	out := map[string]*served{}
	for kind := range corpus.Kinds {
		s := byVersion["v1alpha1/"+kind]
		if s == nil {
			t.Fatalf("%s's CRDs do not serve %s v1alpha1", tag, kind)
		}
		out[kind] = s
	}
	return out
}
