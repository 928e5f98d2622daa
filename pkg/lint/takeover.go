package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// CheckMasterManaged is the takeover check's name (NFD314).
const CheckMasterManaged = "nfd-master-managed"

// Takeover finds the Nodes whose managedFields show nfd-master owning
// fields nfd-fn would own (objects.Node.MasterFields): applied with
// `kubectl apply --server-side --field-manager=nfd-fn`, the fields nfd-fn
// sets to the value the Node has are shared without a conflict, those it
// sets otherwise (the tracking annotations once a rule went) conflict,
// and a field only nfd-master's
// entries hold (a label a removed rule made) is never removed by nfd-fn's
// apply, not even with --force-conflicts, and, once nfd-master is
// stopped, by nothing: it is orphaned. It is told of each rendered node
// (Add) and keeps a finding only for the Nodes nfd-master manages.
type Takeover struct {
	opts     master.Options
	nodes    map[string]*objects.Object[*objects.Node]
	findings diag.List
}

// NewTakeover starts the takeover check of set's Nodes; nil when no Node
// carries nfd-master's managedFields (Add and Findings of nil do
// nothing).
func NewTakeover(set *objects.Set, opts master.Options) *Takeover {
	var t *Takeover
	for i := range set.Nodes {
		n := &set.Nodes[i]
		if n.Used() && n.Obj.MasterFields != nil {
			if t == nil {
				t = &Takeover{opts: opts, nodes: map[string]*objects.Object[*objects.Node]{}}
			}
			t.nodes[n.Obj.Name] = n
		}
	}
	return t
}

// Add checks one rendered node.
func (t *Takeover) Add(res *master.NodeResult) {
	if t == nil {
		return
	}
	n := t.nodes[res.Name]
	if n == nil {
		return
	}
	owned := t.opts.OwnedState(&res.State)
	mf, now := n.Obj.MasterFields, &n.Obj.State
	var shared, orphaned fieldList
	split := func(what string, managed []string, wanted map[string]string) {
		for _, k := range managed {
			if _, ok := wanted[k]; ok {
				shared.add(what, k)
			} else {
				orphaned.add(what, k)
			}
		}
	}
	split("label", mf.Labels, owned.Labels)
	split("annotation", mf.Annotations, owned.Annotations)
	split("extended resource", mf.Capacity, owned.Capacity)
	// The taint list is atomic: nfd-fn's apply writes it whole while NFD
	// has or had taints on the node (its taints annotation), so it is
	// shared or taken over, never orphaned.
	if _, had := now.Annotations[master.TaintsAnnotation]; mf.Taints && (len(owned.Taints) > 0 || had) {
		shared.add("taint list", "spec.taints")
	}
	if shared.n == 0 && orphaned.n == 0 {
		return
	}
	t.findings = append(t.findings, diag.Diagnostic{Severity: diag.Warning, Check: CheckMasterManaged,
		Object: objects.NodeRef(n.Obj.Name), Field: "metadata.managedFields",
		Pos: n.Origin.Position("metadata.managedFields", true), Message: takeoverMessage(&shared, &orphaned)})
}

// Findings are the takeover findings, in node order.
func (t *Takeover) Findings() diag.List {
	if t == nil {
		return nil
	}
	sort.SliceStable(t.findings, func(i, j int) bool { return t.findings[i].Object.Name < t.findings[j].Object.Name })
	return t.findings
}

func takeoverMessage(shared, orphaned *fieldList) string {
	var b strings.Builder
	b.WriteString("this Node's managedFields show nfd-master (manager nfd-master, operation Update) owning fields nfd-fn writes")
	if shared.n > 0 {
		fmt.Fprintf(&b, "; %s nfd-fn sets too (%s): `kubectl apply --server-side --field-manager=nfd-fn` shares those it sets to the value they have without a conflict, "+
			"and nfd-master keeps owning them, and conflicts on the others (the tracking annotations once a rule went), which --force-conflicts takes over",
			diag.Plural(shared.n, "field"), shared)
	}
	if orphaned.n > 0 {
		fmt.Fprintf(&b, "; %s nfd-fn's render removes (%s) will be orphaned: nfd-fn's apply never removes a field it did not apply, not even with --force-conflicts, and a stopped nfd-master no longer does",
			diag.Plural(orphaned.n, "field"), orphaned)
	}
	b.WriteString("; clear nfd-master's managedFields entries before the first apply (docs/pipelines.md, Taking over from nfd-master)")
	return b.String()
}

// fieldList names fields by kind, the first few of each spelt out.
type fieldList struct {
	n     int
	kinds []string
	names map[string][]string
}

const maxListedFields = 5

func (l *fieldList) add(kind, name string) {
	if l.names == nil {
		l.names = map[string][]string{}
	}
	if _, seen := l.names[kind]; !seen {
		l.kinds = append(l.kinds, kind)
	}
	l.names[kind] = append(l.names[kind], name)
	l.n++
}

// String is "labels a, b and 3 more; annotation c".
func (l *fieldList) String() string {
	parts := make([]string, 0, len(l.kinds))
	for _, kind := range l.kinds {
		names := l.names[kind]
		shown := names
		if len(shown) > maxListedFields {
			shown = shown[:maxListedFields]
		}
		s := strings.Join(shown, ", ")
		if more := len(names) - len(shown); more > 0 {
			s += fmt.Sprintf(" and %d more", more)
		}
		if kind == "taint list" {
			parts = append(parts, s)
			continue
		}
		label := kind
		if len(names) > 1 {
			label += "s"
		}
		parts = append(parts, label+" "+s)
	}
	return strings.Join(parts, "; ")
}
