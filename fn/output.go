package fn

import (
	"io"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
)

// Output is a form a render writes other than the ResourceList
// (RunOptions.Output; nil writes the list): what the form asks of the
// run's settings, and, unless it writes the list too, how it writes the
// run's output. The forms are ApplyOutput, NovaOutput and LabelsOutput,
// one for each of render's --output forms that is not the list.
type Output struct {
	// settle sets what the form asks of the settings.
	settle func(*config.Settings)
	// write writes the output once the list's items are settled; finish
	// (may be nil) adds the results known once every node is rendered.
	// nil writes the list (writeList).
	write func(rl *krm.ResourceList, out io.Writer, r *report, finish func()) error
}

// ApplyOutput writes the Nodes alone, apply-ready (nodeOutput: apply), as
// a YAML stream of the part it names for kubectl apply --server-side
// (nfd-fn render --output apply, and apply-status for
// --subresource=status): one Node for every node, name-only when NFD owns
// nothing in that part. The results go to RunOptions.ErrorLog only.
func ApplyOutput(part ApplyPart) *Output {
	return &Output{
		settle: func(s *config.Settings) { s.NodeOutput = config.NodeOutputApply },
		write: func(rl *krm.ResourceList, out io.Writer, _ *report, finish func()) error {
			err := rl.WriteObjects(out, func(it *krm.Item) bool { return it.APIVersion == "v1" && it.Kind == "Node" && it.Changed }, applyShape(part))
			if finish != nil {
				finish()
			}
			return err
		},
	}
}

// NovaOutput switches the Nova provider config on and has the file put
// in *file (nfd-fn render --output nova); the list is written as ever.
func NovaOutput(file *[]byte) *Output {
	return &Output{settle: func(s *config.Settings) { s.Nova.Enabled, s.Nova.Capture = true, file }}
}

// LabelsOutput puts what each node gets from NFD in *nodes, sorted by
// name (nodeOutput: labels), and writes nothing (nfd-fn render --output
// labels); the results go to RunOptions.ErrorLog only. A run that renders
// nothing (another mode) writes its list.
func LabelsOutput(nodes *[]labelview.Node) *Output {
	return &Output{
		settle: func(s *config.Settings) { s.NodeOutput = config.NodeOutputLabels },
		write: func(rl *krm.ResourceList, out io.Writer, r *report, finish func()) error {
			if r.labels == nil {
				return writeList(rl, out, r, finish)
			}
			// Nothing streams: every node is rendered before the view is taken.
			if finish != nil {
				finish()
			}
			*nodes = r.labels.Sorted()
			return nil
		},
	}
}

// writeList writes the ResourceList, its results last; with the
// functionConfig's nodeOutput labels, what each node gets is among them
// (every node is rendered before the list is written).
func writeList(rl *krm.ResourceList, out io.Writer, r *report, finish func()) error {
	if r.labels != nil {
		if finish != nil {
			finish()
			finish = nil
		}
		r.extend(r.labels.Diagnostics(InfoResultCap))
	}
	return rl.WriteThen(out, func() []*sdk.Result {
		if finish != nil {
			finish()
		}
		return Results(capNotes(r.list))
	})
}
