package modes

import (
	"fmt"
	"time"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Summary is the one line a render ends with on stderr: what was
// rendered, what the nodes get, what went wrong and how long it took.
type Summary struct {
	nodes, rules, labels, taints int
	owned                        *master.Options
	start                        time.Time
}

// NewSummary starts the clock of a render's summary.
func NewSummary() *Summary { return &Summary{start: time.Now()} }

// Begin records the size of the fleet and of its rules, and the options
// the nodes are rendered with (what NFD owns on a node depends on them).
func (s *Summary) Begin(set *objects.Set, nodes int, o *master.Options) {
	s.nodes, s.owned = nodes, o
	for _, r := range set.AcceptedRules() {
		s.rules += len(r.Spec.Rules)
	}
}

// Add counts the labels and taints one rendered node gets: what NFD owns
// on it after nfd-master's policy (taints only when they are enabled,
// labels its namespaces and filters let through), not what the rules ask.
func (s *Summary) Add(n *master.NodeResult) {
	st := s.owned.OwnedState(&n.State)
	s.labels += len(st.Labels)
	s.taints += len(st.Taints)
}

// Line is the line, for the mode (render) and its diagnostics l.
func (s *Summary) Line(mode string, l diag.List) string {
	c := l.Counts()
	return fmt.Sprintf("nfd-fn %s: %s, %s; %s and %s set; %s, %s; %.2fs", mode,
		diag.Plural(s.nodes, "node"), diag.Plural(s.rules, "rule"), diag.Plural(s.labels, "label"), diag.Plural(s.taints, "taint"),
		diag.Plural(c[diag.Error], "error"), diag.Plural(c[diag.Warning], "warning"), time.Since(s.start).Seconds())
}
