package modes

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/explain"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// The ways Explain finds nothing to explain.
var (
	// ErrNoNode: no NodeFeature is attached to the node.
	ErrNoNode = errors.New("no NodeFeature for node")
	// ErrNoRule: no rule has the name asked for.
	ErrNoRule = errors.New("no rule named")
)

// Explanation is mode explain's answer for one node: for each rule,
// whether and why it matched, and the node's labels with their origins.
type Explanation struct {
	Node   string
	Result master.NodeResult
	// Traces are every rule's; Rule, when set, selects the one shown.
	Traces []engine.RuleTrace
	Rule   string
}

// Explain explains one node of a prepared fleet, for the rule named rule
// (every rule when empty). It fails with ErrNoNode (the error names the
// nodes that have a NodeFeature) or, with the explanation of the labels
// all the same, ErrNoRule.
func Explain(p *master.Pipeline, node, rule string) (*Explanation, error) {
	res, traces, ok := p.Explain(node)
	if !ok {
		return nil, fmt.Errorf("%w %q (%s)", ErrNoNode, node, knownNodes(p))
	}
	e := &Explanation{Node: node, Result: res, Traces: traces, Rule: rule}
	if rule != "" && len(e.selected()) == 0 {
		return e, fmt.Errorf("%w %q", ErrNoRule, rule)
	}
	return e, nil
}

// selected are the traces of the rules shown.
func (e *Explanation) selected() []*engine.RuleTrace {
	var out []*engine.RuleTrace
	for i := range e.Traces {
		if explain.Selected(&e.Traces[i], e.Rule) {
			out = append(out, &e.Traces[i])
		}
	}
	return out
}

// Write writes the explanation as text (nfd-fn explain).
func (e *Explanation) Write(w io.Writer) error {
	return explain.Write(w, &e.Result, e.Traces, e.Rule)
}

// Diagnostics are the explanation as info diagnostics (the KRM mode's
// explainNode): one per rule shown, on the rule, and one listing the
// node's labels, on the node.
func (e *Explanation) Diagnostics() diag.List {
	var out diag.List
	for _, tr := range e.selected() {
		out = append(out, diag.Diagnostic{Severity: diag.Info, Check: "explain", Object: tr.Source.Object, Field: tr.Source.Field,
			Message: fmt.Sprintf("explain node %s: %s", e.Node, explain.Rule(tr))})
	}
	return append(out, diag.Diagnostic{Severity: diag.Info, Check: "explain", Object: objects.NodeRef(e.Node),
		Message: fmt.Sprintf("explain node %s: %s", e.Node, explain.Labels(&e.Result))})
}

// ExplainFiles is `nfd-fn explain --node NAME FILE...`: the files read
// with the settings f.LoadSettings read, the node explained (Explain).
// It returns too what is to be told beside the explanation: the errors in
// the files, the unknown fields pruned, and what admission finds that is
// not a note; the objects refused are left out, as the API server would
// refuse them (under strictFieldValidation, those with unknown fields). A
// failure to read the files is a *ReadError.
func ExplainFiles(f *Files, node, rule string) (*Explanation, diag.List, error) {
	s := f.Settings
	set := s.NewSet()
	in := f.reader(set) // open while the set is used: NodeFeatures are read lean
	ds, _, err := in.Read(f.Paths, false)
	if err != nil {
		return nil, nil, &ReadError{Err: err}
	}
	var told diag.List
	for i := range ds {
		// A misspelt field pruned (strictFieldValidation off: Warn) is
		// told too: the object explained lacks it.
		if ds[i].Severity == diag.Error || ds[i].Check == "unknown-field" {
			told = append(told, ds[i])
		}
	}
	for _, d := range in.Admit(&s) {
		if d.Severity != diag.Info {
			told = append(told, d)
		}
	}
	e, err := Explain(master.Prepare(set, s.Options), node, rule)
	return e, told, err
}

// ReadError is a failure to read the files at all, not a problem in them
// (the command line's bad usage, exit 2): inputs.ReadError, for the
// command line, which reads no input itself.
type ReadError = inputs.ReadError

// UsageError is a command line that cannot run as given (exit 2):
// inputs.UsageError, for the command line.
type UsageError = inputs.UsageError

func knownNodes(p *master.Pipeline) string {
	var names []string
	for _, n := range p.NodeNames() {
		if p.HasNode(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "the files hold no NodeFeatures with the " + api.NodeNameLabel + " label"
	}
	return "known nodes: " + strings.Join(names, ", ")
}
