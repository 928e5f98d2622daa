package fn

import (
	"io"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// NodePathPrefix is the directory, relative to the package, that new Node
// items are given in their path annotations: nodes/<node-name>.yaml.
const NodePathPrefix = modes.NodePathPrefix

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

// readList reads a ResourceList for a run: cut by the splitter, each item
// decoded on the worker pool as it is cut, lean where it can be.
func readList(input []byte, opts RunOptions) (*krm.ResourceList, error) {
	return krm.Read(input, krm.ReadOptions{Decoder: newItemDecoder(keepItemNode, nil, opts.Release), Release: opts.Release})
}

// process runs the mode the functionConfig asks for on a read list and
// writes the output list; r may already hold problems met before the list
// existed (in the files it was read from).
func process(rl *krm.ResourceList, out io.Writer, opts RunOptions, r *report) (*report, error) {
	settings, problems := config.Load(rl.FunctionConfig)
	if opts.ForceMode != "" {
		settings.Mode = opts.ForceMode
	}
	if opts.NovaFile != nil {
		settings.Nova.Enabled, settings.Nova.Capture = true, opts.NovaFile
	}
	if opts.Apply != modes.ApplyNone {
		settings.NodeOutput = config.NodeOutputApply
	}
	if opts.Labels != nil {
		settings.NodeOutput = config.NodeOutputLabels
	}
	if opts.Shard != nil {
		settings.Shard = *opts.Shard
	}
	if opts.NFDVersion != "" {
		problems = append(problems, settings.UseRelease(opts.NFDVersion)...)
	}
	if opts.CRDVersion != "" {
		problems = append(problems, settings.UseCRDs(opts.CRDVersion)...)
	}
	worker, more := configuredWorker(rl, &settings, opts.WorkerConfig)
	problems = append(problems, more...)
	if worker != nil {
		settings.WorkerConfig, settings.WorkerConfigFile = worker.Text, worker.File
	}
	if opts.FeatureCatalog != nil {
		settings.FeatureCatalog = opts.FeatureCatalog
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
		testList(rl, settings, r)
	default:
		sum := modes.NewSummary()
		finish = renderList(rl, settings, r, sum, opts.Progress, opts.Apply == modes.ApplyNone && opts.Labels == nil)
		if opts.Summary != nil {
			defer func() { sum.Write(opts.Summary, "render", r.list) }()
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

// write writes the output: the ResourceList, or with Apply the part it
// names of the apply-ready Nodes alone, or with Labels nothing (what each
// node gets goes to *opts.Labels). finish, when not nil, adds the results that are
// known only once every item has been made (a streamed render's).
func write(rl *krm.ResourceList, out io.Writer, opts RunOptions, r *report, finish func()) error {
	if r.labels != nil {
		// Nothing streams: every node is rendered before the list is written.
		if finish != nil {
			finish()
			finish = nil
		}
		if opts.Labels != nil {
			*opts.Labels = r.labels.Sorted()
			return nil
		}
		r.extend(r.labels.Diagnostics(InfoResultCap))
	}
	if opts.Apply == modes.ApplyNone {
		return rl.WriteThen(out, func() []*sdk.Result {
			if finish != nil {
				finish()
			}
			return Results(capNotes(r.list))
		})
	}
	err := rl.WriteObjects(out, func(it *krm.Item) bool { return it.APIVersion == "v1" && it.Kind == "Node" && it.Changed }, opts.Apply.Shape)
	if finish != nil {
		finish()
	}
	return err
}

// RunOptions adjust Run from the command line.
type RunOptions struct {
	// ForceMode overrides the functionConfig's mode when set.
	ForceMode string
	// Discover snapshots the host for mode discover.
	Discover DiscoverFunc
	// ErrorLog, when set, receives one line per error result, for
	// orchestrators that show a failing function's stderr but not its
	// results (kustomize).
	ErrorLog io.Writer
	// NovaFile, when set, switches the Nova provider config on and
	// receives the file (nfd-fn render --output nova).
	NovaFile *[]byte
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
	// Apply, when not ApplyNone, writes the Nodes alone, apply-ready
	// (nodeOutput: apply), as a YAML stream of the part it names for
	// kubectl apply --server-side (nfd-fn render --output apply, and
	// apply-status for --subresource=status): one Node for every node,
	// name-only when NFD owns nothing in that part. The results go to
	// ErrorLog only.
	Apply modes.ApplyPart
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
	// Labels, when set, receives what each node gets from NFD, sorted by
	// name (nodeOutput: labels), and nothing is written to out
	// (nfd-fn render --output labels); the results go to ErrorLog only.
	Labels *[]labelview.Node
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
