package nova

import (
	"fmt"
	"sort"
	"strings"
)

// Place is a provider entry: docs[Doc].Providers[Provider].
type Place struct {
	Doc, Provider int
}

// Duplicate is an identification used by more than one provider entry.
type Duplicate struct {
	// Key is the uuid, $COMPUTE_NODE or name.
	Key string
	// First is where it is used first (in the order given); Again lists
	// every later use.
	First Place
	Again []Place
}

// Duplicates finds identifications used more than once across the files
// nova-compute loads together. It refuses to start on any; entries that
// declare nothing are not counted, since it drops them first.
func Duplicates(docs []*Document) []Duplicate {
	index := map[string]int{}
	var out []Duplicate
	for s, doc := range docs {
		for i := range doc.Providers {
			p := &doc.Providers[i]
			key := p.Identification.Key()
			if key == "" || p.IsEmpty() {
				continue
			}
			here := Place{s, i}
			if d, seen := index[key]; seen {
				out[d].Again = append(out[d].Again, here)
				continue
			}
			index[key] = len(out)
			out = append(out, Duplicate{Key: key, First: here})
		}
	}
	dups := out[:0]
	for _, d := range out {
		if len(d.Again) > 0 {
			dups = append(dups, d)
		}
	}
	return dups
}

// Vocabulary is every trait and resource class the rules produce anywhere
// in the fleet. A name outside it in a hand-written file is the operator's
// own business, not a disagreement with the rules.
type Vocabulary struct {
	Traits, Classes map[string]bool
}

// VocabularyOf collects the names used in doc.
func VocabularyOf(doc *Document) Vocabulary {
	v := Vocabulary{Traits: map[string]bool{}, Classes: map[string]bool{}}
	for _, p := range doc.Providers {
		for _, t := range p.Traits {
			v.Traits[t] = true
		}
		for _, inv := range p.Inventories {
			v.Classes[inv.ResourceClass] = true
		}
	}
	return v
}

// Diff lists where a hand-written provider disagrees with what the rules
// produce for the same node (want, which may be empty): traits and
// resource classes the rules produce that it lacks or sets differently,
// and traits and classes of the rules' vocabulary that it declares but the
// rules do not produce for this node. Messages name the trait or class and
// are sorted.
func Diff(hand, want *Provider, vocab Vocabulary) []string {
	var out []string
	for _, t := range want.Traits {
		if !hand.HasTrait(t) {
			out = append(out, fmt.Sprintf("trait %s: the rules produce it for this node, but this entry does not list it", t))
		}
	}
	for _, t := range hand.Traits {
		if vocab.Traits[t] && !want.HasTrait(t) {
			out = append(out, fmt.Sprintf("trait %s: listed here, but the rules do not produce it for this node", t))
		}
	}
	for i := range want.Inventories {
		w := &want.Inventories[i]
		h := hand.Inventory(w.ResourceClass)
		if h == nil {
			out = append(out, fmt.Sprintf("resource class %s: the rules produce total %d for this node, but this entry has no inventory of it", w.ResourceClass, w.Total))
			continue
		}
		if d := fieldDiffs(h, w); d != "" {
			out = append(out, fmt.Sprintf("resource class %s: %s", w.ResourceClass, d))
		}
	}
	for i := range hand.Inventories {
		c := hand.Inventories[i].ResourceClass
		if vocab.Classes[c] && want.Inventory(c) == nil {
			out = append(out, fmt.Sprintf("resource class %s: listed here, but the rules do not produce it for this node", c))
		}
	}
	sort.Strings(out)
	return out
}

// fieldDiffs compares the fields the rules set.
func fieldDiffs(hand, want *Inventory) string {
	have := map[string]string{}
	for _, f := range hand.fields() {
		have[f.name] = f.value
	}
	var parts []string
	for _, f := range want.fields() {
		h, ok := have[f.name]
		switch {
		case !ok:
			parts = append(parts, fmt.Sprintf("%s is not set here, the rules set %s", f.name, f.value))
		case h != f.value:
			parts = append(parts, fmt.Sprintf("%s is %s here, the rules produce %s", f.name, h, f.value))
		}
	}
	return strings.Join(parts, "; ")
}

// Shadowed tells what a $COMPUTE_NODE entry loses on the nodes that other
// entries name explicitly: nova-compute then ignores the $COMPUTE_NODE entry
// for those nodes. It returns the nodes that lose something and the traits
// and classes lost, both sorted.
func Shadowed(computeNode *Provider, explicit []Provider) (nodes, lost []string) {
	lostSet := map[string]bool{}
	for i := range explicit {
		p := &explicit[i]
		if p.IsEmpty() || p.Identification.Name == "" {
			continue
		}
		loses := false
		for _, t := range computeNode.Traits {
			if !p.HasTrait(t) {
				lostSet["trait "+t], loses = true, true
			}
		}
		for _, inv := range computeNode.Inventories {
			if p.Inventory(inv.ResourceClass) == nil {
				lostSet["resource class "+inv.ResourceClass], loses = true, true
			}
		}
		if loses {
			nodes = append(nodes, p.Identification.Name)
		}
	}
	sort.Strings(nodes)
	return nodes, sortedSet(lostSet)
}
