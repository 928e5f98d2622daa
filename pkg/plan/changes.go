package plan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// Field is the part of a Node a change is in.
type Field int

// The fields, in the order the renderings list them.
const (
	Labels Field = iota
	Taints
	ExtendedResources
	Annotations
)

var fieldNames = [...]string{"label", "taint", "extended resource", "annotation"}

// String is the field's name, singular: "label".
func (f Field) String() string { return fieldNames[f] }

// Op is what happens to a key.
type Op int

// The operations, in the order the renderings list them.
const (
	Removed Op = iota
	Changed
	Added
)

// Symbol is the op's sign in text: "-", "~" or "+".
func (o Op) Symbol() string { return [...]string{"-", "~", "+"}[o] }

// String is "removed", "changed" or "added".
func (o Op) String() string { return [...]string{"removed", "changed", "added"}[o] }

// MaxValues is how many distinct value changes of one key are listed one
// by one; a key with more (a tracking annotation that lists each node's
// labels, a label whose value is the node's kernel version) becomes one
// Change counting them.
const MaxValues = 3

// Change is one distinct change and the nodes it hits.
type Change struct {
	Field Field
	Op    Op
	// Key is the label, annotation or resource name; for a taint, the
	// taint as key=value:Effect.
	Key string
	// Before and After are the values (Before empty for Added, After for
	// Removed); both empty when Values > 1.
	Before, After string
	// Values is the number of distinct value changes folded into this
	// one: 1 when Before and After are exact.
	Values int
	// Nodes are the nodes it hits, sorted.
	Nodes []string
}

// Changes groups the plan's node changes: identical changes on many nodes
// are one Change, and a key whose values differ between nodes in more
// than MaxValues ways is one Change too. Sorted by field, key, op and
// values.
func (p *Plan) Changes() []Change {
	if p.changes == nil {
		p.changes = group(p.Nodes)
	}
	return p.changes
}

type changeKey struct {
	field         Field
	op            Op
	key           string
	before, after string
}

func group(nodes []NodeChange) []Change {
	exact := map[changeKey][]string{}
	for i := range nodes {
		for _, k := range nodeChanges(&nodes[i]) {
			exact[k] = append(exact[k], nodes[i].Name)
		}
	}
	byKey := map[changeKey][]Change{}
	for k, names := range exact {
		outer := changeKey{field: k.field, op: k.op, key: k.key}
		byKey[outer] = append(byKey[outer], Change{Field: k.field, Op: k.op, Key: k.key, Before: k.before, After: k.after, Values: 1, Nodes: names})
	}
	out := []Change{}
	for _, cs := range byKey {
		if len(cs) > MaxValues {
			cs = []Change{fold(cs)}
		}
		out = append(out, cs...)
	}
	slices.SortFunc(out, compareChanges)
	return out
}

// fold merges the changes of one key into one.
func fold(cs []Change) Change {
	c := Change{Field: cs[0].Field, Op: cs[0].Op, Key: cs[0].Key, Values: len(cs)}
	for _, x := range cs {
		c.Nodes = append(c.Nodes, x.Nodes...)
	}
	slices.Sort(c.Nodes)
	return c
}

func compareChanges(a, b Change) int {
	return cmp.Or(cmp.Compare(a.Field, b.Field), strings.Compare(a.Key, b.Key), cmp.Compare(a.Op, b.Op),
		strings.Compare(a.Before, b.Before), strings.Compare(a.After, b.After))
}

// nodeChanges lists one node's changes as keys. Node names are added in
// the plan's (sorted) order, so every Change's nodes come out sorted.
func nodeChanges(n *NodeChange) []changeKey {
	var out []changeKey
	out = mapChanges(out, Labels, n.Labels)
	out = mapChanges(out, Annotations, n.Annotations)
	out = mapChanges(out, ExtendedResources, n.ExtendedResources)
	if n.Taints != nil {
		for _, t := range n.Taints.Removed {
			out = append(out, changeKey{field: Taints, op: Removed, key: t.String()})
		}
		for _, t := range n.Taints.Added {
			out = append(out, changeKey{field: Taints, op: Added, key: t.String()})
		}
	}
	return out
}

func mapChanges(out []changeKey, f Field, m *MapChange) []changeKey {
	if m == nil {
		return out
	}
	for k, v := range m.Removed {
		out = append(out, changeKey{field: f, op: Removed, key: k, before: v})
	}
	for k, v := range m.Changed {
		out = append(out, changeKey{field: f, op: Changed, key: k, before: v.Before, after: v.After})
	}
	for k, v := range m.Added {
		out = append(out, changeKey{field: f, op: Added, key: k, after: v})
	}
	return out
}

// Describe is the change without its nodes: "key=value", "key: a -> b",
// "key (12 different values)" or the taint.
func (c *Change) Describe(clip func(string) string) string {
	switch {
	case c.Field == Taints:
		return clip(c.Key)
	case c.Values > 1:
		return fmt.Sprintf("%s (%d different values)", clip(c.Key), c.Values)
	case c.Op == Added:
		return clip(c.Key) + "=" + clip(c.After)
	case c.Op == Removed:
		return clip(c.Key) + "=" + clip(c.Before)
	case c.Field == Annotations && IsTrackingList(c.Key):
		return clip(c.Key) + ": " + listDiff(c.Before, c.After, clip)
	}
	return fmt.Sprintf("%s: %s -> %s", clip(c.Key), clip(c.Before), clip(c.After))
}

// trackingLists are nfd-master's tracking annotations, comma-separated
// lists of what it set on the node.
var trackingLists = []string{api.FeatureLabelsAnnotation, api.ExtendedResourceAnnotation,
	api.FeatureAnnotationsTrackingAnnotation, api.NodeTaintsAnnotation}

// IsTrackingList reports whether key is one of nfd-master's tracking
// annotations (for any instance: <instance>.nfd.node.kubernetes.io/...).
func IsTrackingList(key string) bool {
	for _, name := range trackingLists {
		full := api.AnnotationNs + "/" + name
		if key == full || strings.HasSuffix(key, "."+full) {
			return true
		}
	}
	return false
}

// maxListed caps the names a tracking list's difference spells out.
const maxListed = 6

// listDiff is the difference between two tracking lists, what the change
// means rather than two long strings that may clip alike: "+a, -b",
// names clipped, added ones first, in their lists' order.
func listDiff(before, after string, clip func(string) string) string {
	was, is := splitList(before), splitList(after)
	var parts []string
	for _, n := range is {
		if !slices.Contains(was, n) {
			parts = append(parts, "+"+clip(n))
		}
	}
	for _, n := range was {
		if !slices.Contains(is, n) {
			parts = append(parts, "-"+clip(n))
		}
	}
	switch {
	case len(parts) == 0:
		return "the same names, reordered"
	case len(parts) > maxListed:
		return strings.Join(parts[:maxListed], ", ") + fmt.Sprintf(", and %d more", len(parts)-maxListed)
	}
	return strings.Join(parts, ", ")
}

func splitList(s string) []string {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Clip shortens s to at most n runes, marking the cut with "...".
func Clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}

func pluralize(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
