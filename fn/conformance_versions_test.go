package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// versionExpectation is an expected-<release>.json of
// testdata/oracle-versions: caseExpectation plus what that release's API
// server did with each object it did not take as written.
type versionExpectation struct {
	caseExpectation
	Admission []struct {
		Kind    string `json:"kind"`
		Name    string `json:"name"`
		Verdict string `json:"verdict"`
	} `json:"admission"`
}

// oracleReleases maps the expected files of the version cases to the
// nfdVersion each is rendered with ("" is the default, v0.19.0).
var oracleReleases = []struct{ file, nfdVersion string }{
	{"expected-v0.16.json", "v0.16.9"},
	{"expected-v0.17.json", "v0.17.1"},
	{"expected-v0.18.json", "v0.18.3"},
	{"expected-v0.19.json", "v0.19.0"},
	{"expected-v0.19.json", ""},
	{"expected-openshift-5.0.json", "openshift-5.0"},
}

// TestConformanceMatchesEachReleasesEngine runs every case of
// testdata/oracle-versions (a copy of the shared version corpus) as each
// release, and compares the rendered Nodes and groups with that release's
// nfd-master behind its CRD admission; an object its API server rejects
// must have an error result, one it prunes a warning.
func TestConformanceMatchesEachReleasesEngine(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/oracle-versions/case-*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no version cases found: %v", err)
	}
	for _, rel := range oracleReleases {
		for _, dir := range dirs {
			name := rel.nfdVersion
			if name == "" {
				name = "unset"
			}
			t.Run(name+"/"+filepath.Base(dir), func(t *testing.T) {
				t.Parallel()
				input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				var want versionExpectation
				readJSON(t, filepath.Join(dir, rel.file), &want)
				var out bytes.Buffer
				if _, err := Run(input, &out, RunOptions{NFDVersion: rel.nfdVersion}); err != nil {
					t.Fatalf("Run: %v", err)
				}
				var got renderedList
				if err := yaml.Unmarshal(out.Bytes(), &got); err != nil {
					t.Fatalf("output is not a ResourceList: %v", err)
				}
				for _, p := range compareCase(&want.caseExpectation, &got) {
					t.Error(p)
				}
				for _, a := range want.Admission {
					sev := map[string]string{"rejected": "error", "pruned": "warning"}[a.Verdict]
					if !hasResult(got.Results, sev, a.Kind, a.Name) {
						t.Errorf("%s %s is %s by the API server, but there is no %s result about it", a.Kind, a.Name, a.Verdict, sev)
					}
				}
			})
		}
	}
}

// hasResult reports a result of severity sev about the object kind/name.
func hasResult(results []map[string]any, sev, kind, name string) bool {
	for _, r := range results {
		ref, _ := r["resourceRef"].(map[string]any)
		if r["severity"] == sev && ref["kind"] == kind && ref["name"] == name {
			return true
		}
	}
	return false
}
