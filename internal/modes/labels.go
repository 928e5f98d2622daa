package modes

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// Labels gathers what each rendered node gets from NFD, for nodeOutput
// labels: every node's view is kept (a few hundred bytes a node), sorted
// once the fleet is rendered.
type Labels struct {
	mu    sync.Mutex
	opts  *master.Options
	nodes []labelview.Node
}

// CollectLabels has every node st renders collected.
func CollectLabels(st *master.Stream, s config.Settings) *Labels {
	c := &Labels{opts: &s.Options}
	st.Observe(c.add)
	return c
}

func (c *Labels) add(n *master.NodeResult) {
	own := c.opts.OwnedState(&n.State)
	maps.DeleteFunc(own.Annotations, func(k, _ string) bool { return c.opts.IsTracking(k) })
	v := labelview.NewNode(n.Name, own.Labels, own.Annotations, own.Taints, own.Capacity)
	c.mu.Lock()
	c.nodes = append(c.nodes, v)
	c.mu.Unlock()
}

// Sorted returns the views, by node name.
func (c *Labels) Sorted() []labelview.Node {
	labelview.Sort(c.nodes)
	return c.nodes
}

// Diagnostics are one info diagnostic per node, on the node, saying what
// it gets: nodeOutput labels in a ResourceList, where the results are the
// output people read (kpt prints them). Above max nodes they are one
// diagnostic counting the nodes instead, as newer kpt commits every
// result to the Kptfile.
func (c *Labels) Diagnostics(max int) diag.List {
	nodes := c.Sorted()
	if len(nodes) > max {
		empty := 0
		for _, n := range nodes {
			if n.IsEmpty() {
				empty++
			}
		}
		return diag.List{{Severity: diag.Info, Message: fmt.Sprintf(
			"%s rendered, %d getting something from NFD and %d nothing; what each gets is left out of the results above %d nodes (kpt commits them to the Kptfile): nfd-fn render -o labels prints it for every node",
			diag.Plural(len(nodes), "node"), len(nodes)-empty, empty, max)}}
	}
	var out diag.List
	for _, n := range nodes {
		out = append(out, diag.Diagnostic{Severity: diag.Info, Object: diag.ObjectRef{APIVersion: "v1", Kind: "Node", Name: n.Name}, Message: "gets " + summarize(n)})
	}
	return out
}

// summarize is one node's view on one line: labels k=v, ...; annotations
// ...; taints ...; extended resources ....
func summarize(n labelview.Node) string {
	if n.IsEmpty() {
		return "nothing from NFD"
	}
	var parts []string
	add := func(what string, items []string) {
		if len(items) > 0 {
			parts = append(parts, what+" "+strings.Join(items, ", "))
		}
	}
	pairs := func(m map[string]string) []string {
		var out []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, fmt.Sprintf("%s=%s", k, m[k]))
		}
		return out
	}
	add("labels", pairs(n.Labels))
	add("annotations", pairs(n.Annotations))
	add("taints", taintTexts(n.Taints))
	add("extended resources", pairs(n.ExtendedResources))
	return strings.Join(parts, "; ")
}

func taintTexts(ts []labelview.Taint) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}
