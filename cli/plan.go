package cli

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

const planUsage = `Usage: nfd-fn plan [flags] PATH...

Shows what a rule change does to the fleet before it is applied: the
labels, annotations, extended resources and taints each node gains, loses
or changes, and the workloads that lose or gain eligible nodes. PATHs hold
the snapshot (NodeFeatures, Nodes, Namespaces, as kubectl exports them)
and the rules after the change, files or directories; - is stdin, and a
ResourceList is read as its items (its functionConfig, if any, instead of
--config).

Without --base, the before side is the snapshot's Node objects as they are
(a node without one starts empty): what applying the rules now would
change. With --base, it is the render of the base rules over the same
snapshot: what the rule change alone does. --base-worker-config,
--base-config, --base-nfd-version and --base-crd-version give the before
side settings of its own (the rules being the head's without --base):
what a worker configuration change, an nfd-master setting or an NFD
upgrade does. --worker-config recomputes each node's built-in labels
(its NodeFeature's spec.labels) from its features, as that nfd-worker
configuration would publish them.

Exit status: 1 on errors (a broken rule, a workload left with no eligible
node), 2 on bad usage (an unknown flag or --output, a path that cannot be
read), else 0. With --detailed-exitcode, as terraform plan: 0 when nothing
changes, 2 when something does, and 1 on every error, bad usage and
unreadable paths included, so that 2 always means a plan with changes.

Flags:
`

// pathList is a repeatable path flag.
type pathList []string

func (l *pathList) String() string     { return strings.Join(*l, ",") }
func (l *pathList) Set(s string) error { *l = append(*l, s); return nil }

// planFlags are the flags of nfd-fn plan.
type planFlags struct {
	modes.PlanOptions
	base, workloads        pathList
	output, config         string
	nfdVersion, crdVersion string
	detailed               bool
}

// runPlan implements `nfd-fn plan`. Under --detailed-exitcode, 2 means
// changes, so a usage or reading failure, which planUsage's 2 would
// otherwise report, exits 1 (as terraform plan -detailed-exitcode does).
func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	code, planned := planCommand(args, stdin, stdout, stderr)
	if !planned && code == 2 && asksDetailed(args) {
		return 1
	}
	return code
}

// asksDetailed reports whether args turn --detailed-exitcode on, read
// before the flags are parsed so that a bad flag beside it still exits 1.
func asksDetailed(args []string) bool {
	on := false
	for _, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "detailed-exitcode" {
			continue
		}
		on = true
		if hasValue {
			on, _ = strconv.ParseBool(value)
		}
	}
	return on
}

// planCommand is runPlan with bad usage as exit 2; planned says the code
// is the plan's (Plan.ExitCode), not a failure to make one.
func planCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, planned bool) {
	var f planFlags
	fs := newFlagSet("plan", planUsage, stderr)
	fs.Var(&f.base, "base", "the rules before the change, a file or directory (repeatable); the snapshot is the PATHs'")
	fs.Var(&f.workloads, "workloads", "Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs, CronJobs and Pods, a file or directory such as helm template's output (repeatable)")
	fs.StringVar(&f.output, "output", "text", "text, markdown (a pull-request comment), json, github (workflow commands: annotations at the files) or junit")
	fs.StringVar(&f.output, "o", "text", "short for --output")
	fs.BoolVar(&f.detailed, "detailed-exitcode", false, "exit 0 when nothing changes, 2 when something does, 1 on errors (bad usage and unreadable paths included)")
	fs.StringVar(&f.config, "config", "", "functionConfig file (ConfigMap or NFDFunctionConfig) with nfd-master's settings")
	fs.StringVar(&f.nfdVersion, "nfd-version", "", "render as this NFD release (see nfd-fn render --help; docs/releases.md)")
	fs.StringVar(&f.crdVersion, "crd-version", "", "admit objects with this NFD release's CRDs (a CRD chart that lags the operand)")
	fs.StringVar(&f.WorkerConfig, "worker-config", "", "nfd-worker configuration after the change (nfd-worker.conf, its ConfigMap or Helm values): recompute each node's built-in labels with it")
	fs.StringVar(&f.BaseWorkerConfig, "base-worker-config", "", "nfd-worker configuration before the change")
	fs.StringVar(&f.BaseConfig, "base-config", "", "nfd-master's settings before the change (as --config)")
	fs.StringVar(&f.BaseNFDVersion, "base-nfd-version", "", "the NFD release before the change (an upgrade: --base-nfd-version v0.17.1 --nfd-version v0.19.0)")
	fs.StringVar(&f.BaseCRDVersion, "base-crd-version", "", "the release of the CRDs before the change")
	paths, code, done := parseArgs(fs, args, stdout)
	if done {
		return code, false
	}
	forms := modes.PlanOutputs(takesColour(stdout))
	form, ok := forms.Find(f.output)
	switch {
	case len(paths) == 0:
		complain(stderr, "nfd-fn plan: at least one PATH (the snapshot and the rules) is required")
		fs.Usage()
		return 2, false
	case !ok:
		complain(stderr, "nfd-fn plan: unknown --output %q: want %s", f.output, forms.Want())
		return 2, false
	}
	files := modes.OpenFiles(paths, stdin)
	defer files.Close()
	if code := loadSettings("plan", files, modes.SettingsFlags{Config: f.config, NFDVersion: f.nfdVersion, CRDVersion: f.crdVersion}, stderr); code != 0 {
		return code, false
	}
	f.Base, f.Workloads = f.base, f.workloads
	f.Causes = f.output == "github" || f.output == "junit"
	p, err := modes.PlanFiles(files, f.PlanOptions)
	if err != nil {
		complain(stderr, "nfd-fn plan: %v", err)
		return 2, false
	}
	if err := diag.WriteText(stderr, p.Diagnostics); err != nil {
		return 1, false
	}
	if err := form.Write(stdout, p); err != nil {
		complain(stderr, "nfd-fn plan: writing output: %v", err)
		return 1, false
	}
	return p.ExitCode(f.detailed), true
}

// takesColour reports whether w is a terminal that takes colour: neither
// NO_COLOR set nor TERM=dumb.
func takesColour(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(f)
}
