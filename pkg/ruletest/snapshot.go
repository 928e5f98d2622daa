package ruletest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
)

// Snapshot is the text of a suite's snapshot: the labels-json view of
// every node its inputs render (nfd-fn render -o labels-json).
func Snapshot(nodes []labelview.Node) ([]byte, error) {
	var b bytes.Buffer
	err := labelview.WriteJSON(&b, nodes)
	return b.Bytes(), err
}

// CheckSnapshot compares a snapshot's text (nil when the file does not
// exist) with the nodes rendered now; a mismatch's detail is a per-node
// diff.
func CheckSnapshot(s *Suite, text []byte, got []labelview.Node) Case {
	c := Case{File: s.File, Line: s.SnapshotLine, Field: s.SnapshotField, Name: "snapshot " + s.Snapshot}
	if text == nil {
		c.Failure = fmt.Sprintf("snapshot %s: no such file (nfd-fn test --update writes it)", s.Snapshot)
		return c
	}
	var want struct {
		Nodes []labelview.Node `json:"nodes"`
	}
	if err := json.Unmarshal(text, &want); err != nil {
		c.Failure = fmt.Sprintf("snapshot %s: not a labels-json view: %v (nfd-fn test --update rewrites it)", s.Snapshot, err)
		return c
	}
	diff := diffNodes(want.Nodes, got)
	if len(diff) > 0 {
		c.Failure = fmt.Sprintf("snapshot %s: the render differs on %s (nfd-fn test --update accepts the new answer)", s.Snapshot, diag.Plural(countNodes(diff), "node"))
		c.Detail = strings.Join(diff, "\n")
	}
	return c
}

// diffNodes lists, node by node, what the snapshot holds (-) and the
// render gives (+) where they differ.
func diffNodes(want, got []labelview.Node) []string {
	w, g := byName(want), byName(got)
	names := slices.Sorted(maps.Keys(w))
	for n := range g {
		if _, ok := w[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []string
	for _, name := range names {
		a, inA := w[name]
		b, inB := g[name]
		switch {
		case !inB:
			out = append(out, "node "+name+":", "  - the whole node (no longer rendered)")
		case !inA:
			out = append(out, "node "+name+":", "  + the whole node (new)")
		default:
			if lines := diffNode(a, b); len(lines) > 0 {
				out = append(append(out, "node "+name+":"), lines...)
			}
		}
	}
	return out
}

func countNodes(diff []string) int {
	n := 0
	for _, l := range diff {
		if strings.HasPrefix(l, "node ") {
			n++
		}
	}
	return n
}

func byName(nodes []labelview.Node) map[string]labelview.Node {
	out := make(map[string]labelview.Node, len(nodes))
	for _, n := range nodes {
		out[n.Name] = n
	}
	return out
}

// diffNode is one node's differences, kind by kind, keys sorted.
func diffNode(a, b labelview.Node) []string {
	var out []string
	out = append(out, diffMap("label", a.Labels, b.Labels)...)
	out = append(out, diffMap("annotation", a.Annotations, b.Annotations)...)
	out = append(out, diffMap("taint", taintMap(a.Taints), taintMap(b.Taints))...)
	return append(out, diffMap("extended resource", a.ExtendedResources, b.ExtendedResources)...)
}

func taintMap(ts []labelview.Taint) map[string]string {
	out := map[string]string{}
	for _, t := range ts {
		out[t.String()] = ""
	}
	return out
}

func diffMap(kind string, a, b map[string]string) []string {
	var out []string
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, inA := a[k]
		vb, inB := b[k]
		switch {
		case inA && !inB:
			out = append(out, "  - "+kind+" "+k+entryValue(va))
		case !inA && inB:
			out = append(out, "  + "+kind+" "+k+entryValue(vb))
		case va != vb:
			out = append(out, "  - "+kind+" "+k+entryValue(va), "  + "+kind+" "+k+entryValue(vb))
		}
	}
	return out
}

func entryValue(v string) string {
	if v == "" {
		return ""
	}
	return "=" + strconv.Quote(v)
}
