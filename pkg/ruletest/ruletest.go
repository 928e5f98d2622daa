// Package ruletest is the RuleTest format (kind: RuleTest, apiVersion
// nfd-fn.dev/v1alpha1): what a rule author expects of a render, node by
// node, group by group and finding by finding, each expectation with the
// line it was written on. It reads test files (Parse), checks a suite
// against what a render gave (Check), measures which rules the tests
// exercise (Coverage) and writes the outcome in the forms CI systems read
// (text, JSON, JUnit, TAP, GitHub workflow commands). It does no I/O of
// its own beyond the writers it is given.
package ruletest

// APIVersion and Kind name a RuleTest document.
const (
	APIVersion = "nfd-fn.dev/v1alpha1"
	Kind       = "RuleTest"
)

// Suite is one RuleTest: where its objects come from and what is
// expected of their render.
type Suite struct {
	// File is the test file as found; relative paths in the suite are
	// relative to its directory.
	File string
	Name string
	// Line is the line of the document's kind, where a problem of the
	// suite as a whole is reported.
	Line int
	// NFDVersion, Config and WorkerConfig are as written ("" when not).
	NFDVersion   string
	Config       string
	WorkerConfig string
	// Inputs are files or directories, as written.
	Inputs     []string
	InputsLine int
	// InputsAt are the inputs each with its line and field path
	// (spec.inputs[1]); ConfigAt and WorkerConfigAt are spec.config and
	// spec.workerConfig's (zero when not written).
	InputsAt                 []Entry
	ConfigAt, WorkerConfigAt Entry
	// InputsField is the inputs' field path ("spec.inputs").
	InputsField string
	Nodes       []NodeExpect
	Groups      []GroupExpect
	Findings    []FindingExpect
	// Only says that the listed findings are all there may be at error
	// or warning (a finding written with only: true).
	Only bool
	// Snapshot is the snapshot file, as written, and its line.
	Snapshot     string
	SnapshotLine int
	// SnapshotField is the snapshot's field path.
	SnapshotField string
}

// Entry is one key of an expectation map or list, with its value (empty
// for a list of keys), the line it was written on and its field path
// (spec.expect.nodes[0].labels["example.com/x"]).
type Entry struct {
	Key, Value string
	Line       int
	Field      string
}

// NodeExpect is what one node must get.
type NodeExpect struct {
	Node string
	Line int
	// Field is the expectation's field path (spec.expect.nodes[0]).
	Field string
	// Labels, Annotations and ExtendedResources must be present with
	// exactly these values; AbsentLabels must not be set at all.
	Labels            []Entry
	AbsentLabels      []Entry
	Annotations       []Entry
	ExtendedResources []Entry
	Taints            []TaintExpect
}

// TaintExpect is a taint the node must carry, exactly.
type TaintExpect struct {
	Key, Value, Effect string
	Line               int
	Field              string
}

// GroupExpect is a NodeFeatureGroup's exact members.
type GroupExpect struct {
	// Group is namespace/name, or name for a group in no namespace.
	Group   string
	Members []string
	Line    int
	Field   string
}

// FindingExpect is a finding that must be reported: a check (ID or
// name) and, optionally, the object it is about (Kind/name or
// Kind/namespace/name), its severity and a part of its message.
type FindingExpect struct {
	Check, Object, Severity, Message string
	Only                             bool
	Line                             int
	Field                            string
}
