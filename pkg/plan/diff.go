package plan

import (
	"sort"

	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// diffNode compares a node's managed state before and after; ok is false
// when nothing changes.
func diffNode(name string, before, after *objects.NodeState) (NodeChange, bool) {
	c := NodeChange{Name: name,
		Labels:            diffMap(before.Labels, after.Labels),
		Annotations:       diffMap(before.Annotations, after.Annotations),
		ExtendedResources: diffMap(before.Capacity, after.Capacity),
		Taints:            diffTaints(before, after),
	}
	ok := c.Labels != nil || c.Annotations != nil || c.ExtendedResources != nil || c.Taints != nil
	return c, ok
}

// diffMap is nil when the maps hold the same entries.
func diffMap(before, after map[string]string) *MapChange {
	c := &MapChange{}
	for k, a := range after {
		b, ok := before[k]
		switch {
		case !ok:
			c.Added = put(c.Added, k, a)
		case b != a:
			if c.Changed == nil {
				c.Changed = map[string]ValueChange{}
			}
			c.Changed[k] = ValueChange{Before: b, After: a}
		}
	}
	for k, b := range before {
		if _, ok := after[k]; !ok {
			c.Removed = put(c.Removed, k, b)
		}
	}
	if c.Added == nil && c.Removed == nil && c.Changed == nil {
		return nil
	}
	return c
}

func put(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// diffTaints compares taints by key, value and effect (the time they were
// added does not count); nil when they are the same.
func diffTaints(before, after *objects.NodeState) *TaintChange {
	b, a := taintSet(before), taintSet(after)
	c := &TaintChange{}
	for t := range a {
		if !b[t] {
			c.Added = append(c.Added, t)
		}
	}
	for t := range b {
		if !a[t] {
			c.Removed = append(c.Removed, t)
		}
	}
	if c.Added == nil && c.Removed == nil {
		return nil
	}
	sortTaints(c.Added)
	sortTaints(c.Removed)
	return c
}

func taintSet(st *objects.NodeState) map[Taint]bool {
	m := make(map[Taint]bool, len(st.Taints))
	for _, t := range st.Taints {
		m[taintOf(t)] = true
	}
	return m
}

func sortTaints(ts []Taint) {
	sort.Slice(ts, func(i, j int) bool { return ts[i].String() < ts[j].String() })
}
