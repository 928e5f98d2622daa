// Package labelview answers the first question about a rule set: what
// does each node get? It holds, per node, the labels, feature
// annotations, taints and extended resources NFD gives it, and writes
// them as a compact table for a person or as JSON for a script
// (`nfd-fn render --output labels` and `labels-json`).
package labelview

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// Node is what NFD gives one node. The maps and the list are never nil,
// so that the JSON form always has every member.
type Node struct {
	Name string `json:"name"`
	// Labels are the labels NFD sets, with their values.
	Labels map[string]string `json:"labels"`
	// Annotations are the feature annotations rules set (nfd-master's
	// tracking annotations are bookkeeping and left out).
	Annotations map[string]string `json:"annotations"`
	// Taints are sorted by key, value and effect.
	Taints []Taint `json:"taints"`
	// ExtendedResources are the extended resources in status.capacity.
	ExtendedResources map[string]string `json:"extendedResources"`
}

// Taint is a taint NFD sets.
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Effect string `json:"effect"`
}

// NewNode returns the view of a node called name; nil maps and lists
// become empty ones.
func NewNode(name string, labels, annotations map[string]string, taints []api.Taint, resources map[string]string) Node {
	n := Node{Name: name, Labels: orEmpty(labels), Annotations: orEmpty(annotations), Taints: []Taint{}, ExtendedResources: orEmpty(resources)}
	for _, t := range taints {
		n.Taints = append(n.Taints, Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	slices.SortFunc(n.Taints, func(a, b Taint) int {
		return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value), cmp.Compare(a.Effect, b.Effect))
	})
	return n
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// String is the taint as kubectl writes it: key=value:Effect, or
// key:Effect without a value.
func (t Taint) String() string {
	if t.Value == "" {
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}

// IsEmpty reports whether NFD gives the node nothing.
func (n *Node) IsEmpty() bool {
	return len(n.Labels) == 0 && len(n.Annotations) == 0 && len(n.Taints) == 0 && len(n.ExtendedResources) == 0
}

// Sort orders nodes by name, the order both forms are written in.
func Sort(nodes []Node) {
	slices.SortFunc(nodes, func(a, b Node) int { return cmp.Compare(a.Name, b.Name) })
}

// WriteJSON writes {"nodes": [...]}, indented, nodes in the order given
// (Sort them first) and map keys sorted: re-runs are byte-identical.
func WriteJSON(w io.Writer, nodes []Node) error {
	if nodes == nil {
		nodes = []Node{}
	}
	b, err := json.MarshalIndent(struct {
		Nodes []Node `json:"nodes"`
	}{nodes}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteText writes one row per thing a node gets, NODE KIND KEY VALUE,
// aligned, the node's name on every row so that grep keeps it; kinds in
// the order label, annotation, taint, resource, keys sorted. A node that
// gets nothing has one row saying so.
func WriteText(w io.Writer, nodes []Node) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tKIND\tKEY\tVALUE")
	for _, n := range nodes {
		if n.IsEmpty() {
			fmt.Fprintf(tw, "%s\t-\t(nothing)\n", cell(n.Name))
			continue
		}
		rows(tw, n.Name, "label", n.Labels)
		rows(tw, n.Name, "annotation", n.Annotations)
		for _, t := range n.Taints {
			fmt.Fprintf(tw, "%s\ttaint\t%s\t%s\n", n.Name, cell(t.Key), cell(t.Value+":"+t.Effect))
		}
		rows(tw, n.Name, "resource", n.ExtendedResources)
	}
	return tw.Flush()
}

func rows(w io.Writer, node, kind string, m map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", cell(node), kind, cell(k), cell(m[k]))
	}
}

// cell is a table cell: a value with a control character (a tab or a
// newline would break the table's rows, an escape rewrite the terminal)
// is quoted, Go style.
func cell(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return strconv.Quote(s)
	}
	return s
}
