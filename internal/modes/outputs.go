package modes

import (
	"io"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/labelview"
	"github.com/nfd-fn/nfd-fn/pkg/plan"
)

// Output is one --output form of a command: its name, what writes it
// (W: a function over what the command made), and, for a form another
// program acts on, why it is written only when the run has no error
// (FailsClosed; "" for a form a person reads, written beside its errors).
type Output[W any] struct {
	Name        string
	Write       W
	FailsClosed string
}

// Outputs is a command's table of --output forms, in the order its usage
// lists them: validate's, plan's (PlanOutputs) and render's (with
// LabelOutputs) have this one shape, and a form is added by adding a row.
type Outputs[W any] []Output[W]

// Find returns the form called name; ok is false for every other name,
// which the command refuses: there is no default form to fall back to.
func (t Outputs[W]) Find(name string) (Output[W], bool) {
	for _, o := range t {
		if o.Name == name {
			return o, true
		}
	}
	return Output[W]{}, false
}

// Want lists the forms' names for a message: "text, markdown or json".
func (t Outputs[W]) Want() string {
	names := make([]string, len(t))
	for i, o := range t {
		names[i] = o.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// PlanOutputs are plan's --output forms: text (coloured with color),
// markdown (a pull-request comment), json, github (workflow commands)
// and junit.
func PlanOutputs(color bool) Outputs[func(io.Writer, *plan.Plan) error] {
	return Outputs[func(io.Writer, *plan.Plan) error]{
		{Name: "text", Write: func(w io.Writer, p *plan.Plan) error { return plan.WriteText(w, p, plan.TextOptions{Color: color}) }},
		{Name: "markdown", Write: plan.WriteMarkdown},
		{Name: "json", Write: plan.WriteJSON},
		{Name: "github", Write: plan.WriteGitHub},
		{Name: "junit", Write: plan.WriteJUnit},
	}
}

// LabelsWriter writes what NFD gives each node in one form.
type LabelsWriter = func(io.Writer, []labelview.Node) error

// LabelOutputs are render's --output forms of what NFD gives each node
// (nodeOutput labels): a table a person reads (labels) and JSON a script
// reads (labels-json), which fails closed.
var LabelOutputs = Outputs[LabelsWriter]{
	{Name: "labels", Write: labelview.WriteText},
	{Name: "labels-json", Write: labelview.WriteJSON,
		FailsClosed: "--output labels-json writes a clean run's view only (a script acting on it would take a failed node for a bare one)"},
}
