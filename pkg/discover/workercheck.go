package discover

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// ProblemKind says what nfd-worker does with a problem of its
// configuration.
type ProblemKind int

const (
	// Refused: nfd-worker refuses the configuration and stops.
	Refused ProblemKind = iota
	// Ignored: nfd-worker ignores what is written, or reads it otherwise
	// (an unknown key, an unquoted 0200 read as "128").
	Ignored
	// Noted: a setting worth a word (noPublish, defaults used instead).
	Noted
)

// ConfigProblem is one problem of an nfd-worker configuration, at the
// line and column of the file holding it (0 when it has no place).
type ConfigProblem struct {
	Line, Column int
	// Path is the field, e.g. sources.custom[0].matchFeatures; "" for
	// the whole configuration.
	Path    string
	Message string
	Kind    ProblemKind
	// brief is the problem without the file's contents, for a file
	// nfd-fn did not choose (Options.Confine).
	brief string
}

// String is the problem as discover prints it: "line N: path: message".
func (p ConfigProblem) String() string {
	s := p.Message
	if p.Path != "" {
		s = p.Path + ": " + s
	}
	if p.Line > 0 {
		s = fmt.Sprintf("line %d: %s", p.Line, s)
	}
	return s
}

// Brief is the problem without the file's contents.
func (p ConfigProblem) Brief() string {
	if p.brief != "" {
		return p.brief
	}
	return p.String()
}

// CheckWorkerConfig reads the configuration as the nfd-worker release
// nfdVersion names ("" is DefaultNFDVersion) and returns the
// noPublishFeatures it sets and every problem discover reports: what
// nfd-worker refuses (with the line of each invalid custom-rule
// operator), the keys it ignores and the values it reads otherwise, the
// label fields it drops.
func CheckWorkerConfig(f *WorkerConfigFile, nfdVersion string) (noPublish []string, problems []ConfigProblem, err error) {
	rel, err := resolveRelease(nfdVersion)
	if err != nil {
		return nil, nil, err
	}
	c := defaultWorkerConfig()
	problems = f.check(&c, rel)
	return c.Core.NoPublishFeatures, problems, nil
}

// check decodes the configuration over c as nfd-worker rel does and
// returns its problems in the order discover reports them.
func (f *WorkerConfigFile) check(c *workerConfig, rel release) []ConfigProblem {
	var out []ConfigProblem
	if len(strings.TrimSpace(string(f.Text))) > 0 {
		if err := decodeWorkerConfig(f.Text, c, rel); err != nil {
			out = f.refusals(err)
		}
	}
	if f.root != nil {
		for _, p := range checkFields(f.root, workerConfigShape(rel), "", "nfd-worker "+rel.name) {
			out = append(out, ConfigProblem{Line: p.line + f.line, Column: p.column + f.column, Path: p.path, Message: p.msg, Kind: Ignored,
				brief: fieldProblem{line: p.line + f.line, reread: p.reread, who: p.who}.brief()})
		}
	}
	if len(out) > 0 && out[0].Kind == Refused {
		return out
	}
	if c.Core.NoPublish {
		out = append(out, ConfigProblem{Message: "core.noPublish is true: nfd-worker would publish nothing; nfd-fn prints the object it would have published", Kind: Noted})
	}
	out = append(out, labelFieldProblems("sources.pci.deviceLabelFields", c.Sources.PCI.DeviceLabelFields, pciLabelAttrs())...)
	return append(out, labelFieldProblems("sources.usb.deviceLabelFields", c.Sources.USB.DeviceLabelFields, usbLabelAttrs())...)
}

// refusals are the problems behind a decoding error: each custom-rule
// operator nfd-worker refuses at its line, else the error itself (at the
// line nfd-worker's YAML reader names, if any).
func (f *WorkerConfigFile) refusals(err error) []ConfigProblem {
	var out []ConfigProblem
	for _, op := range invalidCustomOps(f.root) {
		out = append(out, ConfigProblem{Line: op.node.Line + f.line, Column: op.node.Column + f.column, Path: op.path,
			Message: invalidOpError(op.node.Value).Error() + ": nfd-worker refuses the configuration", Kind: Refused,
			brief: fmt.Sprintf("not a valid nfd-worker configuration: line %d (details withheld: run nfd-fn discover --config on the host)", op.node.Line+f.line)})
	}
	if len(out) > 0 && strings.Contains(err.Error(), "invalid Op") {
		return out
	}
	line := 0
	if l := lineOf(err); l != "" {
		fmt.Sscanf(l, ": line %d", &line)
		line += f.line
	}
	brief := "not a valid nfd-worker configuration (details withheld: run nfd-fn discover --config on the host)"
	if line > 0 {
		brief = fmt.Sprintf("not a valid nfd-worker configuration: line %d (details withheld: run nfd-fn discover --config on the host)", line)
	}
	return append([]ConfigProblem{{Line: line, Message: err.Error(), Kind: Refused, brief: brief}}, out...)
}

// opAt is an operator node of a custom rule with its field path.
type opAt struct {
	node *yaml.Node
	path string
}

// invalidCustomOps finds the operators of sources.custom that nfd-worker's
// custom source refuses, in document order.
func invalidCustomOps(root *yaml.Node) []opAt {
	var out []opAt
	custom := ys.Resolve(ys.Value(lookupMapping(root, "sources"), "custom"))
	if custom == nil || custom.Kind != yaml.SequenceNode {
		return nil
	}
	terms := func(m *yaml.Node, path string) {
		if m = ys.Resolve(m); m == nil || m.Kind != yaml.SequenceNode {
			return
		}
		for k, term := range m.Content {
			exprs := lookupMapping(ys.Resolve(term), "matchExpressions")
			for i := 0; exprs != nil && i+1 < len(exprs.Content); i += 2 {
				field := fmt.Sprintf("%s[%d].matchExpressions.%s", path, k, exprs.Content[i].Value)
				if op := lookupScalar(ys.Resolve(exprs.Content[i+1]), "op"); op != nil && !customOps()[v1alpha1.MatchOp(op.Value)] {
					out = append(out, opAt{op, field + ".op"})
				}
			}
		}
	}
	for i, rule := range custom.Content {
		rule = ys.Resolve(rule)
		path := fmt.Sprintf("sources.custom[%d]", i)
		terms(lookupValue(rule, "matchFeatures"), path+".matchFeatures")
		if any := ys.Resolve(lookupValue(rule, "matchAny")); any != nil && any.Kind == yaml.SequenceNode {
			for j, e := range any.Content {
				terms(lookupValue(ys.Resolve(e), "matchFeatures"), fmt.Sprintf("%s.matchAny[%d].matchFeatures", path, j))
			}
		}
	}
	return out
}

// lookupValue finds key in mapping m case-insensitively: its value node.
func lookupValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(m.Content[i].Value, key) {
			return m.Content[i+1]
		}
	}
	return nil
}

// lookupScalar is lookupValue's value when it is a scalar.
func lookupScalar(m *yaml.Node, key string) *yaml.Node {
	if v := ys.Resolve(lookupValue(m, key)); v != nil && v.Kind == yaml.ScalarNode {
		return v
	}
	return nil
}

// invalidOpError is nfd-worker's refusal of a custom rule's operator.
func invalidOpError(op string) error {
	return fmt.Errorf("invalid Op %q (nfd-worker's custom rules know In, NotIn, InRegexp, Exists, DoesNotExist, Gt, Lt, GtLt, IsTrue and IsFalse)", op)
}

// labelFieldProblems are the configured device label fields nfd-worker
// ignores, and its fall back to the defaults when none is valid.
func labelFieldProblems(field string, configured, valid []string) []ConfigProblem {
	var bad []string
	good := 0
	for _, f := range configured {
		if contains(valid, f) {
			good++
		} else {
			bad = append(bad, f)
		}
	}
	var out []ConfigProblem
	if len(bad) > 0 {
		out = append(out, ConfigProblem{Path: field, Kind: Ignored,
			Message: fmt.Sprintf("ignoring invalid fields %q (valid: %s)", bad, strings.Join(valid, ", ")),
			brief:   fmt.Sprintf("%s: ignoring %d invalid field(s) (valid: %s)", field, len(bad), strings.Join(valid, ", "))})
	}
	if good == 0 {
		out = append(out, ConfigProblem{Path: field, Message: "no valid fields, using the defaults", Kind: Noted})
	}
	return out
}
