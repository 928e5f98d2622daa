package modes

import (
	"errors"
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// RenderOptions adjust Render.
type RenderOptions struct {
	// Worker is the nfd-worker configuration among the input (fn's
	// listWorkerConfig), for lint's checks; nil for none.
	Worker *lint.WorkerConfig
	// Progress, when set, is called as nodes are rendered with the number
	// done and the total (master.Pipeline.Progress).
	Progress func(done, total int)
	// Summary, when set, counts what the nodes get for the line a render
	// ends with.
	Summary *Summary
}

// Rendering is mode render's domain part over one set: the fleet pipeline
// prepared (master.Prepare) and cut to the settings' shard, its Stream
// observed by the fleet-wide checks, the summary and, with nodeOutput
// labels, the labels view. The driver renders the nodes through Stream,
// a few at a time, writing each where it belongs (fn writes them into
// their items, streamed), then calls Finish for the fleet-wide results.
type Rendering struct {
	// Pipeline is the prepared fleet.
	Pipeline *master.Pipeline
	// Stream renders the nodes; with the Nova provider config on, it
	// keeps them all (it needs every node at once).
	Stream *master.Stream
	// OtherShards are the nodes other shards render, left out of this
	// one (nil unless the settings shard the fleet).
	OtherShards []string
	// Labels, with nodeOutput labels, collects what each node gets;
	// nil otherwise.
	Labels *Labels

	set   *objects.Set
	s     config.Settings
	check *lint.FleetCheck
	// takeover is the takeover check (NFD314), render's and plan's
	// alone: nil when no Node carries nfd-master's managedFields.
	takeover *lint.Takeover
	worker   *lint.WorkerConfig
}

// Render starts mode render over set with settings s: prepare, shard,
// stream, with the fleet check, the summary and the labels view observing
// every node rendered.
func Render(set *objects.Set, s config.Settings, o RenderOptions) *Rendering {
	p := master.Prepare(set, s.Options)
	p.Progress = o.Progress
	r := &Rendering{Pipeline: p, set: set, s: s, worker: o.Worker}
	r.OtherShards = p.OnlyShard(s.Shard)
	r.Stream = p.Stream(master.StreamOptions{KeepNodes: s.Nova.Enabled})
	fleetNodes := p.NodeNames()
	if s.Shard.Sharded() {
		// A shard's nodes are not the fleet: "matches no node" and
		// "taints every node" would be about the shard.
		fleetNodes = nil
	}
	r.check = lint.NewFleetCheck(set, s.Options, fleetNodes)
	r.Stream.Observe(r.check.Add)
	if r.takeover = lint.NewTakeover(set, s.Options); r.takeover != nil {
		r.Stream.Observe(r.takeover.Add)
	}
	if o.Summary != nil {
		o.Summary.Begin(set, len(p.NodeNames()), &s.Options)
		r.Stream.Observe(o.Summary.Add)
	}
	if s.NodeOutput == config.NodeOutputLabels {
		r.Labels = CollectLabels(r.Stream, s)
	}
	return r
}

// Finish returns found (what the run found so far) with the fleet-wide
// results, once every node has been rendered: nfd-master's own problems,
// lint's checks (static, and on the fleet rendered), the explanation the
// settings ask for (explainNode), the Nova provider config's findings
// (nova, called with the rendered nodes when the settings enable it: fn
// writes its ConfigMap), the outputs no node's features cover; then what
// admission already says is dropped, every diagnostic placed, and the
// settings' suppressions applied (ignore names where they are written).
func (r *Rendering) Finish(found diag.List, nova func([]master.NodeResult) diag.List, ignore diag.Diagnostic) diag.List {
	s, set := &r.s, r.set
	fleet := r.Stream.Finish()
	findings := lint.OnTheFleet(lint.Static(set, lint.Options{Master: s.Options, Outputs: true, Worker: r.worker, Catalog: s.FeatureCatalog}), fleet.NodeDiagnostics)
	findings = append(findings, r.check.Findings()...)
	findings = append(findings, r.takeover.Findings()...)
	set.Place(findings)
	findings.SortByPosition()
	found = append(append(found, fleet.Diagnostics...), findings...)
	found = append(found, explainNode(r.Pipeline, s)...)
	if s.Nova.Enabled && nova != nil {
		found = append(found, nova(fleet.Nodes)...)
	}
	found = append(found, lint.Uncovered(fleet.NodeDiagnostics, findings)...)
	found = admission.DropCovered(found)
	set.Place(found)
	return set.Suppress(found, s.Ignore, ignore).FoldObjects()
}

// explainNode is what the settings' explainNode asks for (Explain): one
// info diagnostic per rule, saying whether and why it matched on the node,
// and one listing the node's labels with their origins; a warning when
// the node or the rule is not there.
func explainNode(p *master.Pipeline, s *config.Settings) diag.List {
	if s.ExplainNode == "" {
		return nil
	}
	e, err := Explain(p, s.ExplainNode, s.ExplainRule)
	switch {
	case errors.Is(err, ErrNoNode):
		return diag.List{{Severity: diag.Warning, Message: fmt.Sprintf("explainNode: no NodeFeature for node %q in the input", s.ExplainNode)}}
	case errors.Is(err, ErrNoRule):
		return append(diag.List{{Severity: diag.Warning, Message: fmt.Sprintf("explainRule: no rule named %q", s.ExplainRule)}}, e.Diagnostics()...)
	}
	return e.Diagnostics()
}
