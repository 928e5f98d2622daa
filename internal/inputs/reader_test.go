package inputs_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// exportedNodeFeature is a NodeFeature as kubectl get -o yaml lists it,
// an item of a v1 List.
func exportedNodeFeature(name, nodeLabel string) string {
	return `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    creationTimestamp: "2025-10-01T12:00:00Z"
    generation: 3
    labels:
      ` + nodeLabel + `
    name: ` + name + `
    namespace: node-feature-discovery
    resourceVersion: "48211"
    uid: 0a0b0c0d-1111-4222-8333-444455556661
  spec:
    features:
      attributes:
        kernel.version:
          elements:
            full: 6.8.0-1015-aws
            major: "6"
            minor: "8"
      flags:
        cpu.cpuid:
          elements:
            AVX: {}
            AVX2: {}
`
}

// kubectlList wraps items as kubectl get -o yaml does.
func kubectlList(items ...string) string {
	return "apiVersion: v1\nitems:\n" + strings.Join(items, "") + "kind: List\nmetadata:\n  resourceVersion: \"\"\n"
}

// TestReaderReportsWhereTheFilesSay reads files as validate, explain
// and plan do and checks every problem Read reports, in order, with its
// line and column, and the files it counts.
func TestReaderReportsWhereTheFilesSay(t *testing.T) {
	const rule = "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: cpu\nspec:\n  rules:\n  - name: avx\n    labels:\n      avx: \"true\"\n    matchFeatures:\n    - feature: cpu.cpuid\n      matchExpressions:\n        AVX: {op: Exists}\n"
	tests := []struct {
		name    string
		files   map[string]string
		onlyNFD bool
		note    bool
		want    []string
		read    int
	}{{
		name: "nodefeature-defined-twice-in-an-export-names-both-lines",
		files: map[string]string{"export.yaml": kubectlList(
			exportedNodeFeature("worker-1", "nfd.node.kubernetes.io/node-name: worker-1"),
			exportedNodeFeature("worker-1", "nfd.node.kubernetes.io/node-name: worker-1"))},
		want: []string{"export.yaml:34:11: error: NodeFeature/worker-1 metadata.name: NodeFeature node-feature-discovery/worker-1 is defined twice, " +
			"at export.yaml:3 and at export.yaml:27: applied in that order the cluster keeps only the last, so nfd-fn uses this one [NFD018]"},
		read: 1,
	}, {
		name: "nodefeature-in-two-files-names-both-lines",
		files: map[string]string{
			"a.yaml": kubectlList(exportedNodeFeature("worker-1", "nfd.node.kubernetes.io/node-name: worker-1")),
			"b.yaml": kubectlList(exportedNodeFeature("worker-2", "nfd.node.kubernetes.io/node-name: worker-2"),
				exportedNodeFeature("worker-1", "nfd.node.kubernetes.io/node-name: worker-1"))},
		want: []string{"b.yaml:34:11: error: NodeFeature/worker-1 metadata.name: NodeFeature node-feature-discovery/worker-1 is defined twice, " +
			"at a.yaml:3 and at b.yaml:27: applied in that order the cluster keeps only the last, so nfd-fn uses this one [NFD018]"},
		read: 2,
	}, {
		name:  "skipped-objects-noted-at-their-kind-when-asked",
		files: map[string]string{"app.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: b\n---\n" + rule},
		note:  true,
		want:  []string{`app.yaml:2:1: info: ConfigMap/settings kind: v1 ConfigMap "settings" is not an NFD kind: skipped [NFD023]`},
		read:  1,
	}, {
		name:  "skipped-objects-not-noted-unless-asked",
		files: map[string]string{"app.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n---\n" + rule},
		read:  1,
	}, {
		name: "files-without-nfd-skipped-silently-and-not-counted",
		files: map[string]string{
			"rules.yaml":          rule,
			"kustomization.yaml":  "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- rules.yaml\n",
			"chart/values.yaml":   "replicas: 2\n",
			"chart/configmap.yml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
		},
		onlyNFD: true,
		note:    true,
		read:    1,
	}, {
		name:  "object-without-metadata-in-a-file-parsed-whole",
		files: map[string]string{"flow.yaml": "{apiVersion: nfd.k8s-sigs.io/v1alpha1, kind: NodeFeatureRule, spec: {rules: []}}\n"},
		want: []string{"flow.yaml:1:1: error: NodeFeatureRule metadata: metadata is missing: every object needs metadata.name; " +
			"the API server would reject this NodeFeatureRule, so nfd-fn ignores it [NFD047]"},
		read: 1,
	}, {
		name: "syntax-error-after-the-objects-before-it",
		files: map[string]string{"rules.yaml": rule + "---\n" + strings.Replace(rule, "name: cpu", "name: gpu", 1) + "  broken: [\n",
			"z.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: nfd\n"},
		want: []string{"rules.yaml:29:1: error: YAML does not parse: did not find expected node content; the rest of the file is not checked [NFD001]"},
		read: 2,
	}, {
		name:  "helm-template-noted-and-left-out",
		files: map[string]string{"templates/rule.yaml": strings.Replace(rule, "name: cpu", "name: {{ .Release.Name }}\n  labels:\n    {{- include \"labels\" . | nindent 4 }}", 1)},
		want:  []string{"templates/rule.yaml: info: a template ({{ }} outside labelsTemplate and varsTemplate) that is YAML only once rendered: not checked (validate what helm template renders instead) [NFD036]"},
		read:  1,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			testkit.WriteFiles(t, ".", tt.files)
			set := &objects.Set{OnlyNFDFiles: tt.onlyNFD}
			r := inputs.NewReader(set)
			defer r.Close()
			ds, read, err := r.Read([]string{"."}, tt.note)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, texts(ds)); diff != "" || read != tt.read {
				t.Errorf("%d files read, want %d; diagnostics (-want +got):\n%s", read, tt.read, diff)
			}
		})
	}
}

// TestReaderLocatesFindingsOnLeanObjects: NodeFeatures and Nodes of
// an export are read without a tree; what is found about them after
// reading gets the line and column of its field all the same.
func TestReaderLocatesFindingsOnLeanObjects(t *testing.T) {
	t.Chdir(t.TempDir())
	testkit.WriteFiles(t, ".", map[string]string{"export.yaml": kubectlList(
		exportedNodeFeature("worker-1", "nfd.node.kubernetes.io/node-name: worker-1"),
		exportedNodeFeature("worker-2", "team: storage"),
		"- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      kubernetes.io/hostname: worker-1\n    name: worker-1\n  spec:\n    podCIDR: 10.0.0.0/24\n")})
	set := &objects.Set{}
	r := inputs.NewReader(set)
	defer r.Close()
	if _, _, err := r.Read([]string{"export.yaml"}, false); err != nil {
		t.Fatal(err)
	}
	if len(set.Features) != 2 || len(set.Nodes) != 1 || set.Features[1].Origin.Node != nil || set.Nodes[0].Origin.Node != nil {
		t.Fatalf("the export's NodeFeatures and Node were not read lean")
	}
	ds := diag.List{
		{Severity: diag.Warning, Object: objects.FeatureRef(set.Features[1].Obj), Field: "metadata.labels", Pos: diag.Position{File: "export.yaml"}, Message: "on worker-2's labels"},
		{Severity: diag.Warning, Object: objects.NodeRef("worker-1"), Field: "spec.podCIDR", Pos: diag.Position{File: "export.yaml"}, Message: "on the Node"},
		{Severity: diag.Warning, Object: objects.NodeRef("worker-9"), Field: "spec", Pos: diag.Position{File: "export.yaml"}, Message: "on no object read"},
	}
	r.Locate(ds)
	want := []string{
		"export.yaml:33:7: warning: NodeFeature/worker-2 metadata.labels: on worker-2's labels",
		"export.yaml:58:14: warning: Node/worker-1 spec.podCIDR: on the Node",
		"export.yaml: warning: Node/worker-9 spec: on no object read",
	}
	if diff := cmp.Diff(want, texts(ds)); diff != "" {
		t.Errorf("located (-want +got):\n%s", diff)
	}
}

func texts(ds diag.List) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Text())
	}
	return out
}
