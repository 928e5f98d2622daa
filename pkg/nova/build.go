package nova

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// Node is what nfd-fn rendered for one node, restricted to what NFD owns.
type Node struct {
	Name string
	// Labels are the labels NFD set on the node, with their values.
	Labels map[string]string
	// Resources are the extended resources NFD set, with their quantities.
	Resources map[string]string
}

// MapOptions choose which labels become traits and how inventories are
// filled in.
type MapOptions struct {
	// TraitLabels, when set, selects the labels that become traits by their
	// full key (an unanchored regexp); the label's value is then part of
	// the trait unless it is "true" or empty. When nil, exactly the labels
	// whose value is "true" become traits.
	TraitLabels *regexp.Regexp
	// Defaults are copied into every inventory.
	Defaults InventoryDefaults
}

// InventoryDefaults are the optional inventory fields set on every
// resource class nfd-fn writes; nil fields are left to placement.
type InventoryDefaults struct {
	Reserved        *int64
	MinUnit         *int64
	MaxUnit         *int64
	StepSize        *int64
	AllocationRatio *float64
}

// Check validates the defaults against placement's limits and returns one
// error per bad field, keyed by the field's name in the file.
func (d InventoryDefaults) Check() map[string]error {
	out := map[string]error{}
	inv := Inventory{ResourceClass: "CUSTOM_X", Total: MaxInt}
	d.apply(&inv)
	for _, iss := range checkInventoryValues(&inv) {
		out[iss.field] = errors.New(iss.msg)
	}
	return out
}

func (d InventoryDefaults) apply(inv *Inventory) {
	inv.Reserved, inv.MinUnit, inv.MaxUnit, inv.StepSize = d.Reserved, d.MinUnit, d.MaxUnit, d.StepSize
	inv.AllocationRatio = d.AllocationRatio
}

// Build makes the provider config for the nodes: one provider per node,
// identified by name and sorted by it, with traits from its labels and
// inventories from its extended resources. A node with neither is left out,
// as nova-compute would ignore it. A name two different sources map to is
// a collision: it is reported and left out everywhere, since nothing says
// which source it stands for.
//
// What Build could not map comes back folded over nodes: one diagnostic
// per problem, listing in Nodes every node it happened on. Its message
// names those nodes and the label or extended resource concerned, e.g.
// `2 nodes (a, b): extended resource "vendor.io/x": no resource class: ...`.
// The diagnostics are sorted by that label or resource, then message.
func Build(nodes []Node, opts MapOptions) (*Document, diag.List) {
	b := builder{opts: opts, problems: map[problemKey][]string{}, traitSources: map[string]map[string]bool{},
		classSources: map[string]map[string]bool{}, users: map[string][]string{}}
	sorted := append([]Node(nil), nodes...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	doc := &Document{SchemaVersion: SchemaVersion}
	for i := range sorted {
		if p, ok := b.provider(&sorted[i]); ok {
			doc.Providers = append(doc.Providers, p)
		}
	}
	b.dropCollisions(doc)
	return doc, b.folded()
}

// problemKey is a problem before folding: source is the label or extended
// resource concerned, e.g. `label "feature.node.kubernetes.io/x"`, empty
// for a node name or a name collision.
type problemKey struct {
	sev             diag.Severity
	source, message string
}

type builder struct {
	opts     MapOptions
	problems map[problemKey][]string
	// traitSources and classSources map each name to the labels or
	// resources it came from; users maps "trait NAME" or "class NAME" to
	// the nodes that have it.
	traitSources, classSources map[string]map[string]bool
	users                      map[string][]string
}

func (b *builder) report(sev diag.Severity, node, source, msg string) {
	k := problemKey{sev, source, msg}
	b.problems[k] = append(b.problems[k], node)
}

func (b *builder) provider(n *Node) (Provider, bool) {
	p := Provider{Identification: Identification{Name: n.Name}}
	if len(n.Name) > MaxProviderNameLength {
		b.report(diag.Error, n.Name, "", fmt.Sprintf("node name is %d characters; Nova allows at most %d in identification.name, so the node is left out", len(n.Name), MaxProviderNameLength))
		return p, false
	}
	p.Traits = b.traits(n)
	p.Inventories = b.inventories(n)
	return p, !p.IsEmpty()
}

// selected tells whether a label becomes a trait.
func (b *builder) selected(key, value string) bool {
	if b.opts.TraitLabels == nil {
		return value == "true"
	}
	return b.opts.TraitLabels.MatchString(key)
}

func (b *builder) traits(n *Node) []string {
	seen := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(n.Labels)) {
		value := n.Labels[key]
		if !b.selected(key, value) {
			continue
		}
		source := fmt.Sprintf("label %q", key)
		name, err := TraitName(key, value)
		if err != nil {
			b.report(diag.Error, n.Name, source, fmt.Sprintf("no trait: %v", err))
			continue
		}
		origin := key
		if value != "" && value != "true" {
			origin = key + "=" + value
		}
		addSource(b.traitSources, name, origin)
		if !seen[name] {
			seen[name] = true
			b.users["trait "+name] = append(b.users["trait "+name], n.Name)
		}
	}
	return sortedSet(seen)
}

func (b *builder) inventories(n *Node) []Inventory {
	var out []Inventory
	for _, res := range slices.Sorted(maps.Keys(n.Resources)) {
		source := fmt.Sprintf("extended resource %q", res)
		class, err := CustomName(res)
		if err != nil {
			b.report(diag.Error, n.Name, source, fmt.Sprintf("no resource class: %v", err))
			continue
		}
		total, err := Total(n.Resources[res])
		if err != nil {
			b.report(diag.Error, n.Name, source, fmt.Sprintf("no %s inventory: %v", class, err))
			continue
		}
		addSource(b.classSources, class, res)
		if total == 0 {
			continue // placement has no zero inventories: no resource, no class
		}
		inv := Inventory{ResourceClass: class, Total: total}
		b.opts.Defaults.apply(&inv)
		if inv.Reserved != nil && *inv.Reserved > total {
			b.report(diag.Error, n.Name, source, fmt.Sprintf("no %s inventory: the default reserved %d is above the total %d, which placement rejects", class, *inv.Reserved, total))
			continue
		}
		if findInventory(out, class) != nil {
			continue // a collision, reported and removed by dropCollisions
		}
		out = append(out, inv)
		b.users["class "+class] = append(b.users["class "+class], n.Name)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ResourceClass < out[j].ResourceClass })
	return out
}

func findInventory(list []Inventory, class string) *Inventory {
	for i := range list {
		if list[i].ResourceClass == class {
			return &list[i]
		}
	}
	return nil
}

func addSource(m map[string]map[string]bool, name, source string) {
	if m[name] == nil {
		m[name] = map[string]bool{}
	}
	m[name][source] = true
}

// dropCollisions removes names that more than one source maps to.
func (b *builder) dropCollisions(doc *Document) {
	badTraits := b.collisions("trait", "labels", b.traitSources)
	badClasses := b.collisions("class", "extended resources", b.classSources)
	if len(badTraits)+len(badClasses) == 0 {
		return
	}
	kept := doc.Providers[:0]
	for _, p := range doc.Providers {
		traits := p.Traits[:0:0]
		for _, t := range p.Traits {
			if !badTraits[t] {
				traits = append(traits, t)
			}
		}
		var invs []Inventory
		for _, inv := range p.Inventories {
			if !badClasses[inv.ResourceClass] {
				invs = append(invs, inv)
			}
		}
		p.Traits, p.Inventories = traits, invs
		if !p.IsEmpty() {
			kept = append(kept, p)
		}
	}
	doc.Providers = kept
}

func (b *builder) collisions(kind, sourceKind string, sources map[string]map[string]bool) map[string]bool {
	bad := map[string]bool{}
	for name, srcs := range sources {
		if len(srcs) < 2 {
			continue
		}
		bad[name] = true
		list := sortedSet(srcs)
		what := "trait"
		if kind == "class" {
			what = "resource class"
		}
		all := "all"
		if len(list) == 2 {
			all = "both"
		}
		msg := fmt.Sprintf("%s %s is left out: the %s %s %s map to it, so it would not say which one a node has",
			what, name, sourceKind, quoteAll(list), all)
		for _, node := range b.users[kind+" "+name] {
			b.report(diag.Error, node, "", msg)
		}
		if len(b.users[kind+" "+name]) == 0 {
			b.report(diag.Error, "", "", msg)
		}
	}
	return bad
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// folded returns the problems, one per source and message, sorted by
// them.
func (b *builder) folded() diag.List {
	keys := make([]problemKey, 0, len(b.problems))
	for k := range b.problems {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].source != keys[j].source {
			return keys[i].source < keys[j].source
		}
		return keys[i].message < keys[j].message
	})
	out := make(diag.List, 0, len(keys))
	for _, k := range keys {
		var named []string
		for _, n := range b.problems[k] {
			if n != "" {
				named = append(named, n)
			}
		}
		sort.Strings(named)
		named = dedupe(named)
		msg := k.message
		if k.source != "" {
			msg = k.source + ": " + msg
		}
		if len(named) > 0 {
			msg = diag.DescribeNodes(named) + ": " + msg
		}
		out = append(out, diag.Diagnostic{Severity: k.sev, Nodes: named, Message: msg})
	}
	return out
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
