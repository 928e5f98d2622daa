package plan

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// planWorkloads finds, for every workload, the nodes it can run on before
// and after. Only nodes whose state changes can change eligibility, so
// the after side is evaluated on those alone. A workload that had
// eligible nodes and has none left is an error.
func planWorkloads(ws []*workload.Workload, names []string, before, after []*objects.NodeState, ds diag.List) ([]WorkloadChange, diag.List) {
	if len(ws) == 0 {
		// No --workloads: no scheduler's view of every node to build (a
		// kube Node each, a third of the peak on 60,000 nodes).
		return []WorkloadChange{}, ds
	}
	beforeNodes := kubeNodes(names, before)
	afterNodes := make([]*corev1.Node, len(names))
	var changed []int
	for i := range names {
		if !sameState(before[i], after[i]) {
			changed = append(changed, i)
			afterNodes[i] = workload.Node(names[i], after[i])
		}
	}
	classes, classOf := constraintClasses(ws)
	results := make([]*WorkloadChange, len(classes))
	problems := make([]*diag.Diagnostic, len(classes))
	parallel.For(len(classes), func(i int) {
		m, problem := workload.NewMatcher(ws[classes[i]])
		problems[i] = problem
		results[i] = compare(m, names, beforeNodes, afterNodes, changed)
	})
	out := []WorkloadChange{}
	for i, w := range ws {
		if p := problems[classOf[i]]; p != nil {
			p := *p
			p.Object, p.Pos = w.Ref(), w.Pos
			ds = append(ds, p)
		}
		r := results[classOf[i]]
		if r == nil {
			continue
		}
		c := *r
		c.Kind, c.Namespace, c.Name, c.Pos = w.Kind, w.Namespace, w.Name, w.Pos
		out = append(out, c)
		if c.LeftWithout() {
			ds = append(ds, leftWithout(w, &c))
		}
	}
	sortWorkloads(out)
	return out, ds
}

// constraintClasses groups workloads whose pods have the same scheduling
// constraints (workload.Constraints): classes holds the index of each
// class's first workload, classOf each workload's class.
func constraintClasses(ws []*workload.Workload) (classes, classOf []int) {
	keys := make([]string, len(ws))
	parallel.For(len(ws), func(i int) { keys[i] = workload.Constraints(ws[i]) })
	seen := map[string]int{}
	classOf = make([]int, len(ws))
	for i, k := range keys {
		c, ok := seen[k]
		if !ok {
			c = len(classes)
			seen[k] = c
			classes = append(classes, i)
		}
		classOf[i] = c
	}
	return classes, classOf
}

// compare is a class's change (without the workload's name); nil when its eligible nodes are the
// same on both sides.
func compare(m *workload.Matcher, names []string, before, after []*corev1.Node, changed []int) *WorkloadChange {
	eligible := make([]bool, len(names))
	count := 0
	for i, n := range before {
		if eligible[i] = m.Eligible(n); eligible[i] {
			count++
		}
	}
	c := &WorkloadChange{EligibleBefore: count, EligibleAfter: count,
		LostNodes: []string{}, GainedNodes: []string{}}
	for _, i := range changed {
		now := m.Eligible(after[i])
		switch {
		case eligible[i] && !now:
			c.LostNodes = append(c.LostNodes, names[i])
			c.EligibleAfter--
		case !eligible[i] && now:
			c.GainedNodes = append(c.GainedNodes, names[i])
			c.EligibleAfter++
		}
	}
	if len(c.LostNodes) == 0 && len(c.GainedNodes) == 0 {
		return nil
	}
	return c
}

func kubeNodes(names []string, states []*objects.NodeState) []*corev1.Node {
	out := make([]*corev1.Node, len(names))
	parallel.For(len(names), func(i int) { out[i] = workload.Node(names[i], states[i]) })
	return out
}

// sameState reports whether a node's scheduling-relevant state (labels,
// taints, capacity) is the same on both sides.
func sameState(a, b *objects.NodeState) bool {
	return diffMap(a.Labels, b.Labels) == nil && diffMap(a.Capacity, b.Capacity) == nil && diffTaints(a, b) == nil
}

func leftWithout(w *workload.Workload, c *WorkloadChange) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Check: "plan-no-eligible-node", Object: w.Ref(), Pos: w.Pos,
		Message: fmt.Sprintf("no node is eligible for its pods after the change (before: %s)", diag.DescribeNodes(c.LostNodes))}
}

// sortWorkloads orders workloads by namespace, name and kind.
func sortWorkloads(ws []WorkloadChange) {
	sort.Slice(ws, func(i, j int) bool {
		a, b := &ws[i], &ws[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Kind < b.Kind
	})
}
