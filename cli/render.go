package cli

import (
	"errors"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/nfd-fn/nfd-fn/fn"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

const renderUsage = `Usage: nfd-fn render [flags] [FILE|DIR|-]...

With no arguments, the KRM function: a ResourceList on stdin, the
ResourceList with rendered Nodes, NodeFeatureGroup status and results on
stdout. With FILE, DIR or - (stdin) arguments, the objects in them
(kubectl get -o yaml|json exports, multi-document YAML, JSON, v1 Lists;
directories walked for *.yaml, *.yml and *.json) are rendered the same
way, and the output is the same ResourceList.

--output apply and apply-status print the Nodes alone, only what NFD
owns: their own fields, and their status, for two server-side applies
(README: Apply-ready output). --output nova prints the OpenStack Nova
provider config file alone, over files as on stdin. --output labels
prints, per node, the labels, feature annotations, taints and extended
resources NFD gives it, as a table; labels-json the same as JSON
({"nodes": [{"name", "labels", "annotations", "taints",
"extendedResources"}]}).

Exit status: 1 when there is an error result, 2 on bad usage (an unknown
flag or --output, a path that cannot be read, as in every command), else 0.
Input whose lines end with CRLF gets output whose lines do too.
An output another program acts on (--output apply, nova and labels-json,
and --out FILE in every mode) is written only when there is no error: on
an error stdout stays empty, FILE keeps what it held, and stderr says so.
The ResourceList and the labels table are written beside their errors.

Flags:
`

// runRender implements `nfd-fn [render]`: the KRM function on stdin, or
// the same over files and directories. With --output nova it prints only
// the Nova provider config file, and the results on stderr; with apply and
// apply-status a part of the apply-ready Nodes.
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	fs := newFlagSet("render", renderUsage, stderr)
	output := fs.String("output", "resourcelist", "resourcelist (the KRM function's output), apply (the Nodes alone, only what NFD owns, for kubectl apply --server-side), apply-status (their extended resources, for kubectl apply --server-side --subresource=status), nova (the Nova provider config file alone), labels (a table: what NFD gives each node) or labels-json (the same as JSON)")
	fs.StringVar(output, "o", "resourcelist", "short for --output")
	config := fs.String("config", "", "functionConfig file (ConfigMap or NFDFunctionConfig), with FILE or DIR arguments")
	shardFlag := fs.String("shard", "", "render only the nodes whose names hash to shard I of N (I/N, from 0/N; README: Sharding)")
	outPath := fs.String("out", "", "write the output to FILE instead of stdout: whole, and only when the run has no error, else FILE is left as it was (for Jobs in images without a shell)")
	nfdVersion := releaseFlag(fs)
	crdVersion := crdFlag(fs)
	worker := fs.String("worker-config", "", "nfd-worker configuration (nfd-worker.conf, its ConfigMap or Helm values): recompute each node's built-in labels (its NodeFeature's spec.labels) with it, as the nodes would carry them once it rolls out")
	catalogFile := catalogFlag(fs)
	paths, code, done := parseArgs(fs, args, stdout)
	if done {
		return code
	}
	form, known := renderOutputs.Find(*output)
	wc, err := modes.ReadWorkerConfig(*worker)
	if err != nil {
		complain(stderr, "nfd-fn render: --worker-config: %v", err)
		return 2
	}
	catalog, err := modes.ReadFeatureCatalog(*catalogFile)
	if err != nil {
		complain(stderr, "nfd-fn render: %v", err)
		return 2
	}
	if *outPath != "" {
		out, err := createOutput(*outPath)
		if err != nil {
			complain(stderr, "nfd-fn render: --out: %v", err)
			return 1
		}
		defer func() { code = out.finish(code, stderr) }()
		stdout = out
	} else if why := form.FailsClosed; why != "" {
		held := holdOutput(stdout, why)
		defer func() { code = held.release(code, stderr) }()
		stdout = held
	}
	opts := fn.RunOptions{Discover: modes.HostDiscover, NFDVersion: *nfdVersion, CRDVersion: *crdVersion, WorkerConfig: wc, FeatureCatalog: catalog}
	if *shardFlag != "" {
		if err := opts.SetShard(*shardFlag); err != nil {
			complain(stderr, "nfd-fn render: --shard: %v", err)
			return 2
		}
	}
	// Guarded here, below the --out and held outputs' defers, so that an
	// input cut short leaves them unwritten (exit 1).
	return fn.Guard(func() int {
		if !known {
			complain(stderr, "nfd-fn render: unknown --output %q: want %s", *output, renderOutputs.Want())
			return 2
		}
		return form.Write(&renderRun{form: *output, paths: paths, config: *config, opts: opts, stdin: stdin, stdout: stdout, stderr: stderr})
	}, vanished(stderr))
}

// renderRun is one run of nfd-fn render, for its --output form to write.
type renderRun struct {
	form           string
	paths          []string
	config         string
	opts           fn.RunOptions
	stdin          io.Reader
	stdout, stderr io.Writer
}

// renderOutputs are render's --output forms (modes.Outputs), each the run
// that writes it; those written to stdout only when the run has no error
// (outfile.go) say why, for the line that says so.
var renderOutputs = append(modes.Outputs[func(*renderRun) int]{
	{Name: "resourcelist", Write: renderResourceList},
	{Name: "apply", Write: renderApply(fn.ApplyObject),
		FailsClosed: "--output apply writes a clean run's Nodes only (applied, a Node missing labels would strip them)"},
	{Name: "apply-status", Write: renderApply(fn.ApplyStatus),
		FailsClosed: "--output apply-status writes a clean run's Nodes only (applied, a Node missing extended resources would strip them)"},
	{Name: "nova", Write: renderNova,
		FailsClosed: "--output nova writes a clean run's provider config only (a provider missing traits would lose them in placement)"},
}, labelOutputs()...)

// labelOutputs are render's forms of what NFD gives each node
// (modes.LabelOutputs), each run by runLabels.
func labelOutputs() []modes.Output[func(*renderRun) int] {
	var out []modes.Output[func(*renderRun) int]
	for _, o := range modes.LabelOutputs {
		write := o.Write
		out = append(out, modes.Output[func(*renderRun) int]{Name: o.Name, FailsClosed: o.FailsClosed, Write: func(r *renderRun) int {
			return runLabels(r.paths, r.config, write, r.opts, r.stdin, r.stdout, r.stderr)
		}})
	}
	return out
}

// renderResourceList writes the ResourceList: the KRM function on stdin,
// or the same over files and directories.
func renderResourceList(r *renderRun) int {
	if len(r.paths) > 0 {
		return runFiles(r.paths, r.config, nil, r.opts, r.stdin, r.stdout, r.stderr)
	}
	if configNeedsPaths(r) {
		return 2
	}
	return runFunction("render", nil, r.opts, r.stdin, r.stdout, r.stderr)
}

// renderApply writes the part of the apply-ready Nodes: the Node's own
// fields, or its status subresource, applied apart (fn.ApplyPart).
func renderApply(part fn.ApplyPart) func(*renderRun) int {
	return func(r *renderRun) int {
		if len(r.paths) == 0 {
			complain(r.stderr, "nfd-fn render: --output %s needs FILE or DIR arguments (- for stdin)", r.form)
			return 2
		}
		return runFiles(r.paths, r.config, fn.ApplyOutput(part), r.opts, r.stdin, r.stdout, r.stderr)
	}
}

// renderNova writes the Nova provider config file alone, which needs
// every node: a shard is refused.
func renderNova(r *renderRun) int {
	switch {
	case r.opts.Shard != nil:
		complain(r.stderr, "nfd-fn render: --shard does not go with --output nova: the provider config needs every node")
		return 2
	case len(r.paths) > 0:
		return runNovaFiles(r.paths, r.config, r.opts, r.stdin, r.stdout, r.stderr)
	case configNeedsPaths(r):
		return 2
	}
	return runNovaOutput(r.paths, r.opts, r.stdin, r.stdout, r.stderr)
}

// configNeedsPaths refuses --config without FILE or DIR arguments: on
// stdin, the ResourceList carries its functionConfig.
func configNeedsPaths(r *renderRun) bool {
	if r.config == "" {
		return false
	}
	complain(r.stderr, "nfd-fn render: --config needs FILE or DIR arguments (on stdin, the ResourceList carries its functionConfig)")
	return true
}

// runNovaOutput renders the ResourceList on stdin and writes the Nova
// provider config file that a deployment tool drops into
// /etc/nova/provider_config/.
func runNovaOutput(args []string, opts fn.RunOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		complain(stderr, "nfd-fn render: unexpected arguments %q", args)
		return 2
	}
	file, diags, code, err := fn.RenderNova(stdin, opts)
	if err != nil {
		complain(stderr, "nfd-fn: %v", err)
		return 1
	}
	if err := diag.WriteText(stderr, diags); err != nil {
		return 1
	}
	if _, err := stdout.Write(file); err != nil {
		complain(stderr, "nfd-fn: writing %s: %v", outputName(stdout), err)
		return 1
	}
	return code
}

// runNovaFiles renders the objects in files and directories, as runFiles
// does, and writes the Nova provider config file alone (--output nova
// FILE|DIR...); the errors and warnings go to stderr.
func runNovaFiles(paths []string, config string, opts fn.RunOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	var file []byte
	code := runFiles(paths, config, fn.NovaOutput(&file), opts, stdin, io.Discard, stderr)
	if code == 2 {
		return code
	}
	if _, err := stdout.Write(file); err != nil {
		complain(stderr, "nfd-fn: writing stdout: %v", err)
		return 1
	}
	return code
}

// runFunction runs the KRM function on stdin with opts. "validate"
// forces the validate mode whatever the functionConfig says.
func runFunction(cmd string, args []string, opts fn.RunOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		complain(stderr, "nfd-fn %s: unexpected arguments %q", cmd, args)
		return 2
	}
	if isTerminal(stdin) {
		complain(stderr, "nfd-fn %s: waiting for a ResourceList on stdin, but stdin is a terminal. "+
			"Pipe one in (nfd-fn %s < list.yaml), or give files and directories (nfd-fn %s FILE|DIR...); nfd-fn %s --help says more.", cmd, cmd, cmd, cmd)
		return 2
	}
	out := &stdoutWriter{w: stdout}
	opts.ForceMode, opts.ErrorLog, opts.Progress = modeFor(cmd), stderr, terminal(stderr)
	if opts.Progress != nil {
		// A person at a terminal, not kpt or kustomize: end with the summary.
		opts.Summary = stderr
	}
	code, err := fn.RunInput(stdin, out, opts)
	return out.exit(code, err, "nfd-fn", stderr)
}

// stdoutWriter streams the output list to stdout and remembers the first
// write error, so that a failing stdout is reported as such rather than
// as an error of the run.
type stdoutWriter struct {
	w   io.Writer
	err error
}

func (s *stdoutWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// exit reports the run's error (prefix names the command) and returns the
// exit code: 2 for a path that cannot be read or settings that exclude
// each other, as in every command.
func (s *stdoutWriter) exit(code int, err error, prefix string, stderr io.Writer) int {
	switch {
	case s.err != nil:
		complain(stderr, "nfd-fn: writing %s: %v", outputName(s.w), s.err)
		return 1
	case errors.As(err, new(*modes.ReadError)), errors.As(err, new(*modes.UsageError)):
		complain(stderr, "%s: %v", prefix, err)
		return 2
	case err != nil:
		complain(stderr, "%s: %v", prefix, err)
		return 1
	}
	return code
}

func modeFor(cmd string) string {
	if cmd == "validate" {
		return "validate"
	}
	return ""
}

// runFiles renders the objects in files and directories.
func runFiles(paths []string, config string, output *fn.Output, opts fn.RunOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	fc, err := modes.ReadConfig(config)
	if err != nil {
		complain(stderr, "nfd-fn render: %v", err)
		return 2
	}
	if config != "" {
		// Settings named by a flag are usage, in every command.
		if found, err := modes.CheckConfigFile(config); err != nil {
			for _, line := range modes.SettingsLines("render", found, err) {
				complain(stderr, "%s", line)
			}
			return 2
		}
	}
	out := &stdoutWriter{w: stdout}
	opts.ErrorLog, opts.Output, opts.Summary, opts.Progress = stderr, output, stderr, terminal(stderr)
	opts.ConfigFile = config
	code, err := fn.RunFiles(paths, stdin, fc, out, opts)
	return out.exit(code, err, "nfd-fn render", stderr)
}

// isTerminal reports whether r is a terminal, where nobody will pipe a
// ResourceList in.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminal returns w when it is a terminal (for progress lines), else nil.
func terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return w
	}
	return nil
}
