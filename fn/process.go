package fn

import (
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// Run reads a ResourceList from input, processes it according to its
// functionConfig and writes the output ResourceList to out. It returns the
// exit code: 1 when any error result was produced. The output always holds
// every input item and every result; only an unreadable input fails early,
// with an error and no output. An input whose lines end with CRLF gets
// an output whose lines do too.
func Run(input []byte, out io.Writer, opts RunOptions) (int, error) {
	if krm.UsesCRLF(input) {
		out = &krm.CRLFWriter{W: out} // CRLF in, CRLF out
	}
	r, err := run(input, out, opts)
	if err != nil {
		return 1, err
	}
	return r.exitCode(), nil
}

// run is Run, returning the run's diagnostics (the output's results) for
// callers that report them otherwise (RenderNova).
func run(input []byte, out io.Writer, opts RunOptions) (*report, error) {
	rl, err := readList(input, opts)
	if err != nil {
		return nil, err
	}
	return process(rl, out, opts, &report{})
}

// readList reads a ResourceList for a run (inputs.ReadList).
func readList(input []byte, opts RunOptions) (*krm.ResourceList, error) {
	return inputs.ReadList(input, opts.Release)
}

// process runs the mode the functionConfig asks for on a read list and
// writes the output list; r may already hold problems met before the list
// existed (in the files it was read from).
func process(rl *krm.ResourceList, out io.Writer, opts RunOptions, r *report) (*report, error) {
	settings, problems := config.Load(rl.FunctionConfig)
	if opts.ForceMode != "" {
		settings.Mode = opts.ForceMode
	}
	if opts.Output != nil {
		opts.Output.settle(&settings)
	}
	if opts.Shard != nil {
		settings.Shard = *opts.Shard
	}
	problems = append(problems, opts.overSettings(&settings)...)
	worker, more := configuredWorker(rl, &settings, opts.WorkerConfig)
	problems = append(problems, more...)
	if worker != nil {
		settings.WorkerConfig, settings.WorkerConfigFile = worker.Text, worker.File
	}
	r.config(rl.FunctionConfig, problems)
	if opts.ErrorLog != nil {
		r.kustomize = readByKustomize(rl)
	}
	var finish func()
	switch settings.Mode {
	case "validate":
		validateList(rl, settings, worker, r)
	case "discover":
		discoverList(rl, settings, problems.HasErrors(), opts.Discover, r)
	case "plan":
		planList(rl, settings, r)
	case "test":
		testList(rl, settings, opts.overSettings, r)
	default:
		sum := modes.NewSummary()
		finish = renderList(rl, settings, r, sum, opts.Progress, opts.Output == nil || opts.Output.write == nil)
		if opts.Summary != nil {
			defer func() { fmt.Fprintln(opts.Summary, sum.Line("render", r.list)) }()
		}
	}
	if err := write(rl, out, opts, r, finish); err != nil {
		return nil, err
	}
	if opts.ErrorLog != nil {
		switch {
		case readByKpt(rl):
			r.pointToResults(opts.ErrorLog)
		case r.kustomize != nil:
			r.logProblems(opts.ErrorLog)
			notePreviews(opts.ErrorLog, settings, r.newNodes)
		default:
			r.logProblems(opts.ErrorLog)
		}
	}
	return r, nil
}

// readByKpt reports a list kpt read from a package: kpt prints a failing
// function's results and its stderr, so the errors are not repeated on
// stderr (kustomize and plain pipes get one line per error).
func readByKpt(rl *krm.ResourceList) bool {
	for _, it := range rl.Items {
		if it.FromKpt {
			return true
		}
	}
	return false
}

// write writes the output: the ResourceList, or the form opts.Output
// names. finish, when not nil, adds the results that are known only once
// every item has been made (a streamed render's).
func write(rl *krm.ResourceList, out io.Writer, opts RunOptions, r *report, finish func()) error {
	if opts.Output != nil && opts.Output.write != nil {
		return opts.Output.write(rl, out, r, finish)
	}
	return writeList(rl, out, r, finish)
}

// RunOptions adjust Run from the command line.
type RunOptions struct {
	// ConfigFile names the file the functionConfig was read from
	// (nfd-fn render --config FILE), where its problems are placed.
	ConfigFile string
	// ForceMode overrides the functionConfig's mode when set.
	ForceMode string
	// Discover snapshots the host for mode discover.
	Discover DiscoverFunc
	// ErrorLog, when set, receives one line per error result, for
	// orchestrators that show a failing function's stderr but not its
	// results (kustomize).
	ErrorLog io.Writer
	// Output, when set, is the form written instead of the plain
	// ResourceList (ApplyOutput, NovaOutput, LabelsOutput).
	Output *Output
	// Summary, when set, receives the one-line summary a render ends with.
	Summary io.Writer
	// Progress, when set, receives progress lines as nodes are rendered
	// (the command line passes stderr when it is a terminal).
	Progress io.Writer
	// Release, when set, is told of input bytes not needed for a while
	// (krm.Input.Release, for an input mapped from a file: peak memory
	// then holds the items in use rather than the whole input).
	Release func([]byte)
	// Shard, when set, overrides the functionConfig's shard
	// (nfd-fn render --shard I/N).
	Shard *master.Shard
	// NFDVersion, when set, overrides the functionConfig's nfdVersion
	// (nfd-fn --nfd-version).
	NFDVersion string
	// CRDVersion, when set, overrides the functionConfig's crdVersion
	// (nfd-fn --crd-version).
	CRDVersion string
	// WorkerConfig, when set, is the nfd-worker configuration each node's
	// own NodeFeature's labels are recomputed with (nfd-fn render
	// --worker-config).
	WorkerConfig *lint.WorkerConfig
	// FeatureCatalog, when set, overrides the functionConfig's
	// featureCatalog (nfd-fn render --feature-catalog).
	FeatureCatalog *lint.FeatureCatalog
}

// overSettings gives s what the command line sets over any
// functionConfig: the release, the CRDs and the feature catalogue. A
// RuleTest's own config gets them too, as `nfd-fn test` gives them to a
// suite's spec.config.
func (opts RunOptions) overSettings(s *config.Settings) diag.List {
	var problems diag.List
	if opts.NFDVersion != "" {
		problems = append(problems, s.UseRelease(opts.NFDVersion)...)
	}
	if opts.CRDVersion != "" {
		problems = append(problems, s.UseCRDs(opts.CRDVersion)...)
	}
	if opts.FeatureCatalog != nil {
		s.FeatureCatalog = opts.FeatureCatalog
	}
	return problems
}

// setGroupStatus writes the members into a NodeFeatureGroup's
// status.nodes; it reports whether anything changed.
func setGroupStatus(n *yaml.Node, members []string) bool {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, m := range members {
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{krm.StrNode("name"), krm.StrNode(m)}})
	}
	old := krm.ValueAt(krm.MapAt(n, "status"), "nodes")
	if old != nil && sameMembers(old, members) {
		return false
	}
	if len(members) == 0 {
		if old == nil {
			return false
		}
		list.Style = yaml.FlowStyle
	}
	krm.SetField(krm.EnsureMap(n, "status"), "nodes", list)
	return true
}

func sameMembers(n *yaml.Node, members []string) bool {
	if n.Kind != yaml.SequenceNode || len(n.Content) != len(members) {
		return false
	}
	for i, c := range n.Content {
		if krm.ScalarAt(c, "name") != members[i] {
			return false
		}
	}
	return true
}
