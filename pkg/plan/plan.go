// Package plan computes what a rule change does to a fleet before it is
// applied, as terraform plan does for infrastructure: for every node, the
// labels, annotations, extended resources and taints it gains, loses or
// changes, and for every workload the nodes it can no longer (or newly
// can) run on. The before side is the snapshot's Node objects as they are
// (nodes without one start empty) or the render of the base rules; the
// after side is the render of the head rules; both over the same
// NodeFeatures and Nodes. A Plan renders as JSON (the stable form), as
// text for a terminal and as Markdown for a pull-request comment.
package plan

import (
	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Plan is the difference between the before and the after side. Only
// nodes and workloads with a change are listed, sorted by name.
type Plan struct {
	Nodes     []NodeChange     `json:"nodes"`
	Workloads []WorkloadChange `json:"workloads"`
	// Rules are the rules whose verdict differs between the sides (an
	// upgrade that admits what was refused, say), when the before side
	// is rendered.
	Rules   []RuleVerdict `json:"rules,omitempty"`
	Summary Summary       `json:"summary"`
	// Diagnostics are the problems met on the way: in the input, in the
	// rules of either side (the base side's marked as such), workloads
	// left with no eligible node. They are not part of the JSON form.
	Diagnostics diag.List `json:"-"`

	// changes caches Changes.
	changes []Change
}

// NodeChange is what changes on one node. A field without a change is
// left out of the JSON form.
type NodeChange struct {
	Name              string       `json:"name"`
	Labels            *MapChange   `json:"labels,omitempty"`
	Annotations       *MapChange   `json:"annotations,omitempty"`
	ExtendedResources *MapChange   `json:"extendedResources,omitempty"`
	Taints            *TaintChange `json:"taints,omitempty"`
}

// MapChange is the difference between two string maps (labels,
// annotations, status.capacity). Empty parts are left out of the JSON form.
type MapChange struct {
	Added   map[string]string      `json:"added,omitempty"`
	Removed map[string]string      `json:"removed,omitempty"`
	Changed map[string]ValueChange `json:"changed,omitempty"`
}

// ValueChange is a value before and after.
type ValueChange struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// TaintChange is the difference between two taint lists. A taint whose
// value changes is removed and added.
type TaintChange struct {
	Added   []Taint `json:"added,omitempty"`
	Removed []Taint `json:"removed,omitempty"`
}

// Taint is a node taint, without the time it was added.
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	Effect string `json:"effect"`
}

// String is the taint as kubectl taint writes it: key=value:Effect.
func (t Taint) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	return s + ":" + t.Effect
}

func taintOf(t v1alpha1.Taint) Taint { return Taint{Key: t.Key, Value: t.Value, Effect: t.Effect} }

// WorkloadChange is a workload whose set of eligible nodes changes.
type WorkloadChange struct {
	Kind           string   `json:"kind"`
	Namespace      string   `json:"namespace"`
	Name           string   `json:"name"`
	EligibleBefore int      `json:"eligibleBefore"`
	EligibleAfter  int      `json:"eligibleAfter"`
	LostNodes      []string `json:"lostNodes"`
	GainedNodes    []string `json:"gainedNodes"`
	// Pos is where the workload is written (its file and line), for the
	// CI reports; not part of the JSON form.
	Pos diag.Position `json:"-"`
	// Causes are the rules whose change of output alone takes lost nodes
	// from the workload, where known (causesOf); not part of the JSON form.
	Causes []Cause `json:"-"`
}

// String is "Kind namespace/name", or "Kind name" without a namespace.
func (w *WorkloadChange) String() string { return objectName(w.Kind, w.Namespace, w.Name) }

// objectName is "Kind namespace/name", or "Kind name" without a
// namespace.
func objectName(kind, namespace, name string) string {
	if namespace == "" {
		return kind + " " + name
	}
	return kind + " " + namespace + "/" + name
}

// LeftWithout reports a workload that had eligible nodes and has none
// after the change: an error of the plan.
func (w *WorkloadChange) LeftWithout() bool { return w.EligibleBefore > 0 && w.EligibleAfter == 0 }

// Summary counts what the plan holds.
type Summary struct {
	// Before is what the before side is: BeforeNodes or BeforeBase.
	Before string `json:"before"`
	// Sides say what differs between the sides besides the rules: the
	// worker configuration, the NFD release, the CRDs, nfd-master's
	// settings (Input.Sides).
	Sides []string `json:"sides,omitempty"`
	// Nodes is the number of nodes planned; NodesChanged of those that
	// change.
	Nodes        int `json:"nodes"`
	NodesChanged int `json:"nodesChanged"`
	// Changes is the number of distinct changes (Changes), each hitting
	// one or more nodes.
	Changes int `json:"changes"`
	// Workloads is the number of workloads read; WorkloadsChanged of those
	// whose eligible nodes change; WorkloadsWithoutNodes of those left
	// with none.
	Workloads             int `json:"workloads"`
	WorkloadsChanged      int `json:"workloadsChanged"`
	WorkloadsWithoutNodes int `json:"workloadsWithoutNodes"`
	// Errors and Warnings count the plan's diagnostics.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Unplannable, when set, says why there is nothing to compare: every
	// NodeFeature of the snapshot is refused, so "no changes" would say
	// nothing about the rules.
	Unplannable string `json:"unplannable,omitempty"`
}

// The values of Summary.Before.
const (
	// BeforeNodes: the before side is the snapshot's Node objects.
	BeforeNodes = "nodes"
	// BeforeBase: the before side is the render of the base rules, or
	// of the head rules with the base settings (Input.BaseOptions).
	BeforeBase = "base"
)

// HasChanges reports whether any node or workload changes.
func (p *Plan) HasChanges() bool { return len(p.Nodes) > 0 || len(p.Workloads) > 0 }

// HasErrors reports whether the plan has an error diagnostic.
func (p *Plan) HasErrors() bool { return p.Diagnostics.HasErrors() }

// ExitCode is terraform plan's -detailed-exitcode: 1 on errors, else 2
// when something changes and 0 when nothing does. Without detailed it is
// 1 on errors and 0 otherwise.
func (p *Plan) ExitCode(detailed bool) int {
	switch {
	case p.HasErrors():
		return 1
	case detailed && p.HasChanges():
		return 2
	}
	return 0
}
