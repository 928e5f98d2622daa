package fn

import (
	"fmt"
	"io"
	"sync"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// report collects the diagnostics of one run, in the order they are found;
// they become the output's KRM results (Result) in that order.
type report struct {
	mu   sync.Mutex
	list diag.List
	// lines says the items' line numbers are their files' (files mode);
	// in a ResourceList they count from the list, not from any file the
	// user has, and are left out.
	lines bool
	// input names the file a ResourceList was read from (nfd-fn render
	// rl.yaml), for the lines on stderr about no other file; empty for
	// stdin ("<input>").
	input string
	// configFile names the functionConfig's file when the command line
	// read it (nfd-fn render --config FILE), for its problems' place.
	configFile string
	// labels, with nodeOutput labels, collects what each node gets.
	labels *modes.Labels
	// newNodes counts the Node items written for nodes without a Node
	// object in the input.
	newNodes int
	// blind counts the apply-ready new Nodes whose taints NFD315 is
	// about.
	blind blindTaints
	// kustomize, for a list kustomize sent, places errors at the items'
	// origins.
	kustomize *kustomizeRun
	// warnings says the warnings go to the error log too, not only the
	// errors: nfd-fn render FILE|DIR..., where a person reads stderr and
	// the summary would otherwise only count them.
	warnings bool
}

// add records a diagnostic about an item (nil: about the run as a whole)
// and a field in it.
func (r *report) add(sev diag.Severity, it *krm.Item, field, msg string) {
	r.addAt(it, field, diag.Diagnostic{Severity: sev, Message: msg})
}

// addAt records d, made by a producer that does not know the item, about
// an item (nil: about the run as a whole) and a field in it; its severity,
// check, message and nodes are kept.
func (r *report) addAt(it *krm.Item, field string, d diag.Diagnostic) {
	r.extend(diag.List{inputs.AboutItem(it, field, d)})
}

// extend records diagnostics.
func (r *report) extend(l diag.List) {
	r.mu.Lock()
	r.list = append(r.list, l...)
	r.mu.Unlock()
}

// exitCode is 1 when any diagnostic is an error.
func (r *report) exitCode() int {
	if r.list.HasErrors() {
		return 1
	}
	return 0
}

// logProblems writes one line per error to w, in diag's text form
// (file:line:col: error: Kind/name field: message), for orchestrators that
// show a failing function's stderr but not its results (kustomize), and
// for people running nfd-fn on files, one per warning too (r.warnings).
func (r *report) logProblems(w io.Writer) {
	for _, d := range r.list {
		if d.Severity != diag.Error && (d.Severity != diag.Warning || !r.warnings) {
			continue
		}
		if !r.lines {
			d.Pos.Line, d.Pos.Column = 0, 0
		}
		r.kustomize.place(&d)
		if d.Pos.File == "" {
			d.Pos.File = r.input
		}
		fmt.Fprintf(w, "nfd-fn: %s\n", d.Text())
	}
}

// pointToResults writes one line to w when there are errors, saying how
// many and that the results list them: under kpt, which shows the results
// above the function's stderr, one line per error would say it all twice.
func (r *report) pointToResults(w io.Writer) {
	if errs := r.list.Counts()[diag.Error]; errs > 0 {
		fmt.Fprintf(w, "nfd-fn: %s, each listed with its file, object and field in the results\n", diag.Plural(errs, "error"))
	}
}

// config records functionConfig problems on the functionConfig object,
// which is located once for them all.
func (r *report) config(fc *yaml.Node, problems diag.List) {
	if len(problems) == 0 {
		return
	}
	ref, pos := functionConfigPlace(fc) // once: it encodes the functionConfig
	if pos.File == "" && r.configFile != "" {
		pos = diag.Position{File: r.configFile}
	}
	out := make(diag.List, len(problems))
	for i, d := range problems {
		d.Object, d.Pos = ref, pos
		d.Message = "functionConfig: " + d.Message
		out[i] = d
	}
	r.extend(out)
}

// functionConfigPlace names the functionConfig object and where it came
// from (kpt's path and index annotations), read as the kpt function SDK
// reads it (fn.KubeObject); with none, the ConfigMap kpt would build.
// The functionConfig is small (a few settings), so the encode this costs
// is nothing beside the items'.
func functionConfigPlace(fc *yaml.Node) (diag.ObjectRef, diag.Position) {
	none := diag.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Name: "functionConfig"}
	if fc == nil {
		return none, diag.Position{}
	}
	text, err := krm.Encode(fc)
	if err != nil {
		return none, diag.Position{}
	}
	o, err := sdk.ParseKubeObject(text)
	if err != nil {
		// Not an object (a scalar, a list): config.Load says what is wrong.
		return diag.ObjectRef{}, diag.Position{}
	}
	ref := diag.ObjectRef{APIVersion: o.GetAPIVersion(), Kind: o.GetKind(), Name: o.GetName(), Namespace: o.GetNamespace()}
	path, index := krm.ReadPlace(o.GetAnnotation)
	return ref, diag.Position{File: path, Index: index}
}
