package modes

import (
	"fmt"
	"io"
	"time"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Summary is the one line a render ends with on stderr: what was
// rendered, what it set, what went wrong and how long it took.
type Summary struct {
	nodes, rules, labels, taints int
	start                        time.Time
}

// NewSummary starts the clock of a render's summary.
func NewSummary() *Summary { return &Summary{start: time.Now()} }

// Begin records the size of the fleet and of its rules.
func (s *Summary) Begin(set *objects.Set, nodes int) {
	s.nodes = nodes
	for _, r := range set.AcceptedRules() {
		s.rules += len(r.Spec.Rules)
	}
}

// Add counts the labels and taints the rules set on one rendered node.
func (s *Summary) Add(n *master.NodeResult) {
	for _, rr := range n.Rules {
		s.labels += len(rr.Labels)
		s.taints += len(rr.Taints)
	}
}

// Write writes the line, for the mode (render) and its diagnostics l.
func (s *Summary) Write(w io.Writer, mode string, l diag.List) {
	c := l.Counts()
	fmt.Fprintf(w, "nfd-fn %s: %s, %s; %s and %s set; %s, %s; %.2fs\n", mode,
		diag.Plural(s.nodes, "node"), diag.Plural(s.rules, "rule"), diag.Plural(s.labels, "label"), diag.Plural(s.taints, "taint"),
		diag.Plural(c[diag.Error], "error"), diag.Plural(c[diag.Warning], "warning"), time.Since(s.start).Seconds())
}

// Progress returns a callback that shows, on a terminal, how many nodes
// are rendered and how fast: at most ten updates a second, erased at the
// end.
func Progress(w io.Writer) func(done, total int) {
	start, last := time.Now(), time.Time{}
	return func(done, total int) {
		now := time.Now()
		if done < total && now.Sub(last) < 100*time.Millisecond {
			return
		}
		last = now
		rate := float64(done) / max(now.Sub(start).Seconds(), 1e-3)
		fmt.Fprintf(w, "\rrendering: %d/%d nodes (%.0f/s)", done, total, rate)
		if done == total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}
