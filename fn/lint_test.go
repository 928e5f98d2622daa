package fn

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// resourceListOf wraps the documents of files into a ResourceList whose
// items carry the files' path annotations.
func resourceListOf(t *testing.T, files ...string) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for i := 0; ; i++ {
			var doc map[string]any
			if err := dec.Decode(&doc); err != nil {
				break
			}
			md := doc["metadata"].(map[string]any)
			md["annotations"] = map[string]any{kioutil.PathAnnotation: f, kioutil.IndexAnnotation: string(rune('0' + i))}
			out, err := yaml.Marshal([]any{doc})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(out)
		}
	}
	return []byte(b.String())
}

// TestFleetChecksAppearInRenderAndValidateResults checks that both modes
// report the fleet checks on testdata/validate/fleet: rules intel-nic,
// any-nic and gpu (spec.rules[0..2]) of NodeFeatureRule fleet-rules, over
// two nodes.
func TestFleetChecksAppearInRenderAndValidateResults(t *testing.T) {
	const file = "../testdata/validate/fleet/rules.yaml"
	input := resourceListOf(t, file, "../testdata/validate/fleet/nodes.yaml")
	want := map[string]string{
		"label-conflict":    `spec.rules[1].labels["nic-vendor"]`,
		"matches-no-node":   "spec.rules[2]",
		"taints-every-node": "spec.rules[1].taints",
	}
	for _, mode := range []string{"render", "validate"} {
		t.Run(mode, func(t *testing.T) {
			var out bytes.Buffer
			code, err := Run(input, &out, RunOptions{ForceMode: mode})
			if err != nil || code != 0 {
				t.Fatalf("exit %d, err %v", code, err)
			}
			got := testkit.Read(t, out.Bytes())
			for check, field := range want {
				rs := got.WithCheck(check)
				if len(rs) != 1 || rs[0].Field.Path != field || rs[0].File.Path != file || rs[0].ResourceRef["name"] != "fleet-rules" || rs[0].Severity != "warning" {
					t.Errorf("%s results = %+v; want one warning on fleet-rules at %s in %s", check, rs, field, file)
				}
			}
			if rs := got.WithCheck("matches-no-node"); len(rs) == 1 && !strings.Contains(rs[0].Message, `"gpu"`) {
				t.Errorf("matches-no-node does not name rule gpu: %q", rs[0].Message)
			}
		})
	}
}

func TestValidateModeReportsStaticChecksWithSuggestions(t *testing.T) {
	input := resourceListOf(t, "../testdata/validate/op-names/rules.yaml")
	var out bytes.Buffer
	code, err := Run(input, &out, RunOptions{ForceMode: "validate"})
	if err != nil || code != 1 {
		t.Fatalf("exit %d, err %v", code, err)
	}
	// rules.yaml writes "in", "inregexp" and "Exsits".
	want := map[string]any{
		"spec.rules[0].matchFeatures[0].matchExpressions.vendor.op": "In",
		"spec.rules[0].matchFeatures[0].matchExpressions.class.op":  "InRegexp",
		"spec.rules[1].matchFeatures[0].matchExpressions.AVX.op":    "Exists",
	}
	got := map[string]any{}
	// The API server refuses an op outside the enum, so the refusal
	// (admission-rejected) carries the rule engine's did-you-mean.
	for _, r := range testkit.Read(t, out.Bytes()).WithCheck("admission-rejected") {
		if r.Field.ProposedValue != nil {
			got[r.Field.Path] = r.Field.ProposedValue
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("proposed values for the misspelt ops (-want +got):\n%s", diff)
	}
}

func TestValidateModeChecksHandWrittenNovaProviderConfigs(t *testing.T) {
	input := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: computes
    annotations:
      internal.config.kubernetes.io/path: nova/computes.yaml
  data:
    computes.yaml: |
      meta:
        schema_version: "1.0"
      providers:
        - identification:
            name: compute-1
          traits:
            additional:
              - HW_CPU_X86_AVX
`)
	var out bytes.Buffer
	code, err := Run(input, &out, RunOptions{ForceMode: "validate"})
	if err != nil || code != 1 || !strings.Contains(out.String(), "HW_CPU_X86_AVX") || !strings.Contains(out.String(), "path: nova/computes.yaml") {
		t.Fatalf("exit %d, err %v, output:\n%s", code, err, out.String())
	}
}

func TestInputThatIsNotAListIsRefused(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"single-object", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "input is a v1 ConfigMap, not a ResourceList"},
		{"export-cut-short", "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n", "no kind, as a kubectl export (kind: List, written after the items) that was cut short would"},
		{"no-header", "items: []\n", "input has no apiVersion and kind"},
		{"json-object", `{"apiVersion": "nfd.k8s-sigs.io/v1alpha1", "kind": "NodeFeatureRule"}`, "not a ResourceList"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := Run([]byte(tt.input), &out, RunOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || out.Len() != 0 {
				t.Fatalf("err %v, output %q; want error %q and no output", err, out.String(), tt.want)
			}
		})
	}
}
