package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// testTypeRefusalWording creates a NodeFeatureRule with values of the
// wrong type on the real server as kubectl sends it (YAML 1.1 turned
// into JSON) and checks that nfd-fn validate's NFD002 findings quote the
// server's refusal: its "… is invalid" and each cause, field and message.
// Under both fieldValidations (no value here has keys the schema prunes).
func testTypeRefusalWording(t *testing.T, p *plane) {
	const release = "v0.19.0"
	path := filepath.Join("testdata/fieldvalidation", "wrong-types.yaml")
	if err := p.useCRDs(crdStream(t, release)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, fv := range []string{"Strict", "Warn"} {
		t.Run(fv, func(t *testing.T) { checkTypeRefusalWording(t, p, path, js, fv) })
	}
}

func checkTypeRefusalWording(t *testing.T, p *plane, path string, js []byte, fieldValidation string) {
	r := p.do("POST", "/apis/nfd.k8s-sigs.io/v1alpha1/nodefeaturerules?dryRun=All&fieldValidation="+fieldValidation, "application/json", js)
	var status struct {
		Message string
		Details struct {
			Causes []struct{ Field, Message string }
		}
	}
	if r.code != http.StatusUnprocessableEntity || json.Unmarshal(r.body, &status) != nil || len(status.Details.Causes) != 3 {
		t.Fatalf("the API server did not refuse the object for its three values: %d %v %s", r.code, r.err, r.body)
	}
	head, _, _ := strings.Cut(status.Message, ": ")
	want := []string{head}
	for _, c := range status.Details.Causes {
		want = append(want, c.Field+": "+c.Message)
	}

	cmd := exec.Command(testkit.Binary(t), "validate", "--config", "testdata/apply/config.yaml", path)
	stdout, stderr, code := testkit.Exec(t, cmd, nil)
	if code != 1 {
		t.Fatalf("nfd-fn validate: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("the API server says %q; nfd-fn validate does not:\n%s", w, stdout)
		}
	}
	t.Logf("nfd-fn quotes the API server's %q", want)
	if n := strings.Count(stdout, "[NFD002]"); n != 3 {
		t.Errorf("nfd-fn validate gives %d NFD002 findings, want one per refused value (3):\n%s", n, stdout)
	}
}
