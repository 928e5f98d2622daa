package workload

import (
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"
	schedulingcorev1 "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Matcher decides whether a workload's pods can be placed on a node. It
// is built once per workload and is safe for concurrent use.
type Matcher struct {
	affinity    nodeaffinity.RequiredNodeAffinity
	tolerations []corev1.Toleration
	// resources are the extended resources the pod requests.
	resources corev1.ResourceList
}

// NewMatcher prepares the workload's scheduling constraints. A required
// node affinity the API server would refuse (an unknown operator, a
// matchFields term with more than one value) matches no node and is a
// warning.
func NewMatcher(w *Workload) (*Matcher, *diag.Diagnostic) {
	pod := w.Pod
	m := &Matcher{affinity: nodeaffinity.GetRequiredNodeAffinity(pod), tolerations: pod.Spec.Tolerations,
		resources: extendedRequests(pod)}
	if w.Kind == "DaemonSet" {
		m.tolerations = append(append([]corev1.Toleration(nil), m.tolerations...), daemonTolerations(pod)...)
	}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		if _, err := nodeaffinity.NewNodeSelector(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution); err != nil {
			return m, &diag.Diagnostic{Severity: diag.Warning, Check: "workload-affinity", Object: w.Ref(), Pos: w.Pos,
				Field:   "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution",
				Message: fmt.Sprintf("required node affinity does not parse (%v): it matches no node", err)}
		}
	}
	return m, nil
}

// Constraints is a canonical form of what decides a workload's eligible
// nodes: workloads with equal Constraints are eligible on the same nodes,
// so a plan evaluates each distinct form once.
func Constraints(w *Workload) string {
	spec := &w.Pod.Spec
	var required *corev1.NodeSelector
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		required = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	key := struct {
		DaemonSet    bool
		HostNetwork  bool
		NodeSelector map[string]string
		Required     *corev1.NodeSelector
		Tolerations  []corev1.Toleration
		Resources    corev1.ResourceList
	}{w.Kind == "DaemonSet", spec.HostNetwork, spec.NodeSelector, required, spec.Tolerations, extendedRequests(w.Pod)}
	b, _ := json.Marshal(key)
	return string(b)
}

// Eligible reports whether the pod could be placed on the node: the
// nodeSelector and required node affinity match its labels and name, every
// NoSchedule and NoExecute taint is tolerated, and its capacity holds the
// extended resources the pod requests.
func (m *Matcher) Eligible(node *corev1.Node) bool {
	if ok, err := m.affinity.Match(node); !ok || err != nil {
		return false
	}
	if _, untolerated := schedulingcorev1.FindMatchingUntoleratedTaint(klog.Background(), node.Spec.Taints, m.tolerations, scheduling, false); untolerated {
		return false
	}
	for name, want := range m.resources {
		have, ok := node.Status.Capacity[name]
		if !ok || have.Cmp(want) < 0 {
			return false
		}
	}
	return true
}

// scheduling selects the taints the scheduler honours.
func scheduling(t *corev1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
}

// extendedRequests are the pod's requests of extended resources, its
// containers' limits standing in for requests they leave out (as the API
// server defaults them).
func extendedRequests(pod *corev1.Pod) corev1.ResourceList {
	p := pod.DeepCopy()
	for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			defaultRequests(&cs[i].Resources)
		}
	}
	out := corev1.ResourceList{}
	for name, q := range resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}) {
		if isExtended(name) && !q.IsZero() {
			out[name] = q
		}
	}
	return out
}

func defaultRequests(r *corev1.ResourceRequirements) {
	for name, q := range r.Limits {
		if _, ok := r.Requests[name]; !ok {
			if r.Requests == nil {
				r.Requests = corev1.ResourceList{}
			}
			r.Requests[name] = q
		}
	}
}

// isExtended is Kubernetes' IsExtendedResourceName: a domain-prefixed name
// outside kubernetes.io, not a quota "requests." name.
func isExtended(name corev1.ResourceName) bool {
	s := string(name)
	native := !strings.Contains(s, "/") || strings.Contains(s, "kubernetes.io/")
	return !native && !strings.HasPrefix(s, "requests.")
}

// daemonTolerations are the tolerations the DaemonSet controller adds to
// every pod it creates (pkg/controller/daemon/util).
func daemonTolerations(pod *corev1.Pod) []corev1.Toleration {
	t := []corev1.Toleration{
		{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		{Key: corev1.TaintNodeDiskPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Key: corev1.TaintNodeMemoryPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Key: corev1.TaintNodePIDPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	}
	if pod.Spec.HostNetwork {
		t = append(t, corev1.Toleration{Key: corev1.TaintNodeNetworkUnavailable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
	}
	return t
}

// Node is the v1 Node the scheduling helpers see for a node's managed
// state: name, labels, taints and capacity (quantities that do not parse
// are left out).
func Node(name string, st *objects.NodeState) *corev1.Node {
	n := &corev1.Node{}
	n.Name, n.Labels = name, st.Labels
	for _, t := range st.Taints {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)})
	}
	n.Status.Capacity = corev1.ResourceList{}
	for k, v := range st.Capacity {
		if q, err := resource.ParseQuantity(v); err == nil {
			n.Status.Capacity[corev1.ResourceName(k)] = q
		}
	}
	return n
}
