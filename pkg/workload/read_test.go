package workload

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// helmOutput is what helm template prints: "# Source:" comments, empty
// documents, workloads of every kind and objects of other kinds.
const helmOutput = `---
# Source: app/templates/service.yaml
apiVersion: v1
kind: Service
metadata: {name: web}
---
---
# Source: app/templates/all.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
spec: {template: {spec: {nodeSelector: {a: b}, containers: [{name: c}]}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec: {template: {spec: {containers: [{name: c}], restartPolicy: Never}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec: {schedule: "@daily", jobTemplate: {spec: {template: {spec: {containers: [{name: c}], restartPolicy: Never}}}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm2}
`

func TestHelmOutputGivesEveryWorkloadKindAndNotesTheRest(t *testing.T) {
	ws, ds := fromText([]byte(helmOutput), "chart.yaml")
	var got []string
	for _, w := range ws {
		got = append(got, w.Ref().String())
	}
	want := "Deployment app/web, StatefulSet db, ReplicaSet rs, Job once, CronJob nightly"
	if strings.Join(got, ", ") != want {
		t.Errorf("workloads %q, want %q", strings.Join(got, ", "), want)
	}
	if ws[0].Pod.Spec.NodeSelector["a"] != "b" || ws[0].Pod.Namespace != "app" {
		t.Errorf("Deployment's pod = %+v", ws[0].Pod)
	}
	var notes []string
	for _, d := range ds {
		if d.Severity != diag.Info {
			t.Errorf("unexpected %s", d.Text())
		}
		notes = append(notes, d.Text())
	}
	wantNotes := []string{
		"chart.yaml: info: v1 ConfigMap: 2 objects skipped, not a workload kind (CronJob, DaemonSet, Deployment, Job, Pod, ReplicaSet, StatefulSet) [NFD045]",
		"chart.yaml: info: v1 Service: 1 object skipped, not a workload kind (CronJob, DaemonSet, Deployment, Job, Pod, ReplicaSet, StatefulSet) [NFD045]",
	}
	if strings.Join(notes, "\n") != strings.Join(wantNotes, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(wantNotes, "\n"))
	}
}

func TestWorkloadWithoutAPodTemplateIsAWarningNamingFileAndObject(t *testing.T) {
	tests := map[string]string{
		"no-template":         "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: app}\nspec: {replicas: 2}\n",
		"template-not-a-spec": "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: web, namespace: app}\nspec: {jobTemplate: {spec: {template: [1]}}}\n",
		"spec-of-wrong-shape": "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: app}\nspec: {containers: {name: c}}\n",
	}
	for name, doc := range tests {
		t.Run(name, func(t *testing.T) {
			ws, ds := fromText([]byte(doc), "deploy/web.yaml")
			if len(ws) != 0 || len(ds) != 1 {
				t.Fatalf("workloads %v, diagnostics %v", ws, ds)
			}
			text := ds[0].Text()
			if ds[0].Severity != diag.Warning || !strings.HasPrefix(text, "deploy/web.yaml:1:1: warning: ") || !strings.Contains(text, "/web ") {
				t.Errorf("got %s", text)
			}
		})
	}
}

func TestAPIGroupDecidesWhatIsAWorkload(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             bool
	}{
		{"apps/v1", "Deployment", true},
		{"extensions/v1beta1", "DaemonSet", true},
		{"v1", "Pod", true},
		{"batch/v1", "CronJob", true},
		{"v1", "Deployment", false},
		{"argoproj.io/v1alpha1", "Rollout", false},
		{"example.com/v1", "Pod", false},
	}
	for _, tt := range tests {
		if got := IsWorkloadKind(tt.apiVersion, tt.kind); got != tt.want {
			t.Errorf("IsWorkloadKind(%q, %q) = %v, want %v", tt.apiVersion, tt.kind, got, tt.want)
		}
	}
}

// fromText reads the workloads of one file's text as nfd-fn plan does
// once the file is cut into documents (internal/inputs reads the file).
func fromText(data []byte, file string) ([]*Workload, diag.List) {
	docs, bad := objects.ReadDocuments(data, file)
	in := make([]Doc, len(docs))
	for i, d := range docs {
		in[i] = Doc{Node: d.Node, Pos: diag.Position{File: file, Index: d.Index, Line: d.Node.Line, Column: d.Node.Column}}
	}
	ws, ds := FromFile(file, in)
	if bad != nil {
		ds = append(ds, *bad)
	}
	return ws, ds
}
