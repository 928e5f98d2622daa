package lint

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// groups reports NodeFeatureGroups nfd-master v0.19.0 never writes a
// status for: it queues groups by name and looks each up in its own
// namespace (NFD #2385, #2558), so a group elsewhere is never found. When
// nfd-master's namespace is known (nfdNamespace, or its Deployment in the
// input) render leaves such a group's status as it was, unless
// groupStatusAllNamespaces asks for a fixed nfd-master's answer; when it
// is not, render writes the status a fixed nfd-master writes, as the
// conformance suite expects, and the warning says the cluster's may
// differ. It also notes, once, that NFD v0.19.0 leaves the
// NodeFeatureGroupAPI gate off by default while nfd-fn turns it on, when
// the configuration does not name it.
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
				fmt.Sprintf("the configuration does not name the NodeFeatureGroupAPI feature gate: the default of NFD %s leaves it off (nfd-master writes no group status), nfd-fn's turns it on; set featureGates: NodeFeatureGroupAPI=true or =false to say which", c.opts.NFDRelease().Chosen()))
		}
		if msg := c.groupNamespace(g.Obj.Metadata.Namespace); msg != "" {
			c.add(g.Origin, ref, diag.Warning, "group-namespace", "metadata.namespace", false, msg)
		}
	}
}

// groupNamespace is the warning about a group in namespace ns, "" when
// nfd-master writes its status or the user asked for a fixed master's
// answer (groupStatusAllNamespaces).
func (c *checker) groupNamespace(ns string) string {
	o := &c.opts
	if !o.EvaluatesGroups() || ns == "" || ns == o.Namespace || o.GroupStatusAllNamespaces {
		return ""
	}
	rel := o.NFDRelease()
	why := "nfd-master " + rel.Chosen() + " looks groups up by name in its own namespace, so %s this group's status (NFD #2385)"
	switch {
	case o.GroupStatusKept(ns):
		return fmt.Sprintf("NodeFeatureGroup in namespace %q, outside nfd-master's %q: "+why+"; render leaves the status as it was (set groupStatusAllNamespaces: \"true\" for a fixed nfd-master's answer)",
			ns, o.Namespace, "it never writes")
	case !o.NamespaceKnown:
		return fmt.Sprintf("NodeFeatureGroup in namespace %q, outside nfd-master's default namespace %q: "+why+"; nfd-fn renders the status a fixed nfd-master would write (set nfdNamespace to nfd-master's namespace for %s's answer)",
			ns, o.Namespace, fmt.Sprintf("if it runs in %q, it never writes", o.Namespace), rel.Name)
	}
	return ""
}
