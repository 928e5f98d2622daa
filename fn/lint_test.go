package fn

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
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
			md["annotations"] = map[string]any{"internal.config.kubernetes.io/path": f, "internal.config.kubernetes.io/index": string(rune('0' + i))}
			out, err := yaml.Marshal([]any{doc})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(out)
		}
	}
	return []byte(b.String())
}

func TestFleetChecksAppearInRenderAndValidateResults(t *testing.T) {
	input := resourceListOf(t, "../testdata/validate/fleet/rules.yaml", "../testdata/validate/fleet/nodes.yaml")
	for _, mode := range []string{"render", "validate"} {
		t.Run(mode, func(t *testing.T) {
			var out bytes.Buffer
			code, err := Run(input, &out, RunOptions{ForceMode: mode})
			if err != nil || code != 0 {
				t.Fatalf("exit %d, err %v", code, err)
			}
			got := out.String()
			for _, want := range []string{
				`label "nic-vendor" is also set by rule "intel-nic"`,
				`rule "gpu" matches none of the 2 nodes in the input`,
				`rule "any-nic" taints every node in the input (all 2)`,
				"path: ../testdata/validate/fleet/rules.yaml",
				`path: spec.rules[1].labels["nic-vendor"]`,
			} {
				if !strings.Contains(got, want) {
					t.Errorf("results lack %q:\n%s", want, got[strings.Index(got, "results:"):])
				}
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
	if !strings.Contains(out.String(), "proposedValue: In") {
		t.Errorf("no proposed value for the misspelt op:\n%s", out.String())
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
