package lint

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// groups reports NodeFeatureGroups nfd-master v0.19.0 never writes a
// status for: it queues groups by name and looks each up in its own
// namespace (NFD #2385, #2558), so a group elsewhere is never found. nfd-fn
// renders the status a fixed nfd-master writes, as its conformance suite
// expects; the warning says the cluster's differs. It also notes, once,
// that NFD v0.19.0 leaves the NodeFeatureGroupAPI gate off by default
// while nfd-fn turns it on, when the configuration does not name it.
func (c *checker) groups() {
	noted := false
	for i := range c.set.Groups {
		g := &c.set.Groups[i]
		if !g.Used() {
			continue
		}
		ref := objects.GroupRef(g.Obj)
		if !noted && !c.opts.GroupGateNamed {
			noted = true
			c.add(g.Origin, ref, diag.Info, "group-namespace", "kind", true,
				"the configuration does not name the NodeFeatureGroupAPI feature gate: NFD v0.19.0's default leaves it off (nfd-master writes no group status), nfd-fn's turns it on; set featureGates: NodeFeatureGroupAPI=true or =false to say which")
		}
		if ns := g.Obj.Metadata.Namespace; c.opts.NodeFeatureGroups && ns != "" && ns != c.opts.Namespace {
			c.add(g.Origin, ref, diag.Warning, "group-namespace", "metadata.namespace", false,
				fmt.Sprintf("NodeFeatureGroup in namespace %q, outside nfd-master's %q: nfd-master v0.19.0 looks groups up by name in its own namespace, so it never writes this group's status (NFD #2385); nfd-fn renders the status a fixed nfd-master would write", ns, c.opts.Namespace))
		}
	}
}
