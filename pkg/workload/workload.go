package workload

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Workload is one object that runs pods.
type Workload struct {
	// APIVersion, Kind, Namespace and Name name the object; Namespace is
	// empty when the manifest has none (Helm output usually leaves it to
	// the install).
	APIVersion, Kind, Namespace, Name string
	// Pos is where the object is in its file.
	Pos diag.Position
	// Pod is a pod the object makes: its template's metadata and spec.
	Pod *corev1.Pod
}

// Ref names the workload for diagnostics.
func (w *Workload) Ref() diag.ObjectRef {
	return diag.ObjectRef{APIVersion: w.APIVersion, Kind: w.Kind, Namespace: w.Namespace, Name: w.Name}
}

// templatePaths maps each workload kind to the path of its pod template;
// an empty path means the object is the pod.
var templatePaths = map[string][]string{
	"Pod":         nil,
	"Deployment":  {"spec", "template"},
	"StatefulSet": {"spec", "template"},
	"DaemonSet":   {"spec", "template"},
	"ReplicaSet":  {"spec", "template"},
	"Job":         {"spec", "template"},
	"CronJob":     {"spec", "jobTemplate", "spec", "template"},
}

// groups are the API groups each workload kind is served in.
var groups = map[string][]string{
	"Pod":         {""},
	"Deployment":  {"apps", "extensions"},
	"StatefulSet": {"apps"},
	"DaemonSet":   {"apps", "extensions"},
	"ReplicaSet":  {"apps", "extensions"},
	"Job":         {"batch"},
	"CronJob":     {"batch"},
}

// IsWorkloadKind reports whether apiVersion and kind name a workload kind
// this package reads.
func IsWorkloadKind(apiVersion, kind string) bool {
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group = ""
	}
	for _, g := range groups[kind] {
		if g == group {
			return true
		}
	}
	return false
}

// FromDocument reads one document that IsWorkloadKind accepts. A pod
// template that cannot be found or does not decode is a warning naming
// the object and the file position pos.
func FromDocument(n *yaml.Node, pos diag.Position) (*Workload, *diag.Diagnostic) {
	md := ys.Mapping(n, "metadata")
	w := &Workload{APIVersion: ys.Scalar(n, "apiVersion"), Kind: ys.Scalar(n, "kind"), Namespace: ys.Scalar(md, "namespace"), Name: ys.Scalar(md, "name"), Pos: pos}
	path := templatePaths[w.Kind]
	tmpl := n
	for _, key := range path {
		tmpl = ys.Mapping(tmpl, key)
	}
	field := joinPath(path)
	if tmpl == nil || ys.Mapping(tmpl, "spec") == nil {
		return nil, w.warning(field, fmt.Sprintf("no pod template at %s.spec: skipped, its eligible nodes are not planned", field))
	}
	pod, err := decodePod(tmpl)
	if err != nil {
		return nil, w.warning(field, fmt.Sprintf("the pod template does not decode (%v): skipped, its eligible nodes are not planned", err))
	}
	if pod.Namespace == "" {
		pod.Namespace = w.Namespace
	}
	w.Pod = pod
	return w, nil
}

func joinPath(path []string) string {
	if len(path) == 0 {
		return "spec"
	}
	return strings.Join(path, ".")
}

func (w *Workload) warning(field, msg string) *diag.Diagnostic {
	if len(templatePaths[w.Kind]) == 0 {
		field = "spec"
	}
	return &diag.Diagnostic{Severity: diag.Warning, Check: "workload-template", Object: w.Ref(), Field: field, Pos: w.Pos, Message: msg}
}

// decodePod decodes a pod template (or a pod: metadata and spec) through
// JSON, as the API server reads it.
func decodePod(n *yaml.Node) (*corev1.Pod, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var tmpl corev1.PodTemplateSpec
	if err := json.Unmarshal(data, &tmpl); err != nil {
		return nil, err
	}
	return &corev1.Pod{ObjectMeta: tmpl.ObjectMeta, Spec: tmpl.Spec}, nil
}
