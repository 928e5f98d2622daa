package lint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// WorkerConfig is what lint reads of an nfd-worker configuration:
// core.noPublishFeatures and the sources.custom rules, with where they
// are. Read it with ReadWorkerConfig.
type WorkerConfig struct {
	// File is where the configuration was read from.
	File string
	// Object is the ConfigMap holding it, when it was read from an object
	// of the input (ReadWorkerConfigMap); its findings name it.
	Object diag.ObjectRef
	// NoPublish are core.noPublishFeatures' patterns ("pci.device",
	// "pci.*").
	NoPublish []string
	// custom is sources.custom, the custom rules.
	custom *yaml.Node
	// lineOffset and indent are added to the lines and columns of the
	// configuration's text when it sits in a ConfigMap's block scalar.
	lineOffset, indent int
}

// ReadWorkerConfig reads an nfd-worker configuration file: the
// configuration itself (nfd-worker.conf), a ConfigMap holding it under
// data["nfd-worker.conf"], or Helm values holding it under worker.config.
// Keys are matched case-insensitively, as nfd-worker's decoding does.
func ReadWorkerConfig(data []byte, file string) (*WorkerConfig, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: not YAML: %w", file, err)
	}
	wc := &WorkerConfig{File: file}
	root := first(&doc)
	if conf := lookup(lookup(root, "data"), "nfd-worker.conf"); conf != nil && conf.Kind == yaml.ScalarNode {
		var inner yaml.Node
		if err := yaml.Unmarshal([]byte(conf.Value), &inner); err != nil {
			return nil, fmt.Errorf("%s: data[\"nfd-worker.conf\"] is not YAML: %w", file, err)
		}
		root, wc.lineOffset = first(&inner), conf.Line
		wc.indent = blockIndent(data, conf.Line)
	} else if conf := lookup(lookup(root, "worker"), "config"); conf != nil {
		root = conf
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not an nfd-worker configuration (a mapping with core and sources)", file)
	}
	wc.read(root)
	return wc, nil
}

// WorkerConfigKey is the ConfigMap data key nfd-worker reads its
// configuration from: NFD's Helm chart (<release>-worker-conf) and its
// kustomize deployment (nfd-worker-conf) both mount it.
const WorkerConfigKey = "nfd-worker.conf"

// ReadWorkerConfigMap reads the nfd-worker configuration an object of the
// input holds: a ConfigMap with data["nfd-worker.conf"], as NFD's Helm
// chart and kustomize deployment make it. It returns nil, nil for any
// other object; ref names the object and file is where it is.
func ReadWorkerConfigMap(obj *yaml.Node, ref diag.ObjectRef, file string) (*WorkerConfig, error) {
	if obj != nil && obj.Kind == yaml.DocumentNode {
		obj = first(obj)
	}
	if ref.Kind != "ConfigMap" || obj == nil {
		return nil, nil
	}
	key, conf := entry(ys.Mapping(obj, "data"), WorkerConfigKey)
	if conf == nil {
		return nil, nil
	}
	where := fmt.Sprintf("ConfigMap %s data[%q]", ref.Name, WorkerConfigKey)
	if conf.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("%s is not a string: nfd-worker reads its configuration from it", where)
	}
	var inner yaml.Node
	if err := yaml.Unmarshal([]byte(conf.Value), &inner); err != nil {
		return nil, fmt.Errorf("%s is not YAML: %w", where, err)
	}
	wc := &WorkerConfig{File: file, Object: ref, lineOffset: conf.Line, indent: key.Column + 1}
	if root := first(&inner); root != nil {
		if root.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s is not an nfd-worker configuration (a mapping with core and sources)", where)
		}
		wc.read(root)
	}
	return wc, nil
}

// WorkerConfigError is a ConfigMap holding an nfd-worker configuration
// that cannot be read (ReadWorkerConfigMap), found among a file's
// documents: the object, where it is, and why.
type WorkerConfigError struct {
	Object diag.ObjectRef
	Pos    diag.Position
	Err    error
}

func (e *WorkerConfigError) Error() string { return e.Pos.File + ": " + e.Err.Error() }

// Unwrap is the reason.
func (e *WorkerConfigError) Unwrap() error { return e.Err }

// Diagnostic is the error about the ConfigMap's configuration key, as
// the KRM function reports the same ConfigMap among its items.
func (e *WorkerConfigError) Diagnostic() diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Object: e.Object, Pos: e.Pos,
		Field: "data[" + WorkerConfigKey + "]", Message: e.Err.Error()}
}

// WorkerConfigInFile finds, among the documents of a YAML file, the
// first ConfigMap holding an nfd-worker configuration
// (ReadWorkerConfigMap): nil, nil when there is none; a
// *WorkerConfigError when that ConfigMap's configuration cannot be read.
// Documents that do not parse end the search; they are the file reader's
// to report.
func WorkerConfigInFile(data []byte, file string) (*WorkerConfig, error) {
	if !bytes.Contains(data, []byte(WorkerConfigKey)) {
		return nil, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for index := 0; ; {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return nil, nil
		}
		obj := first(&doc)
		md := ys.Mapping(obj, "metadata")
		ref := diag.ObjectRef{APIVersion: ys.Scalar(obj, "apiVersion"), Kind: ys.Scalar(obj, "kind"),
			Name: ys.Scalar(md, "name"), Namespace: ys.Scalar(md, "namespace")}
		wc, err := ReadWorkerConfigMap(obj, ref, file)
		if err != nil {
			return nil, &WorkerConfigError{Object: ref, Pos: diag.Position{File: file, Index: index, Line: obj.Line, Column: obj.Column}, Err: err}
		}
		if wc != nil {
			return wc, nil
		}
		index++
	}
}

// read takes noPublishFeatures and the custom rules from a configuration.
func (wc *WorkerConfig) read(root *yaml.Node) {
	if np := lookup(lookup(root, "core"), "noPublishFeatures"); np != nil {
		for _, n := range np.Content {
			if n.Kind == yaml.ScalarNode {
				wc.NoPublish = append(wc.NoPublish, n.Value)
			}
		}
	}
	wc.custom = sourceSection(lookup(root, "sources"), "custom")
}

// name says where the configuration is: its file, or the ConfigMap
// holding it.
func (wc *WorkerConfig) name() string {
	if wc.Object.Kind != "" {
		return fmt.Sprintf("in ConfigMap %s", wc.Object.Name)
	}
	return wc.File
}

// entry finds key in mapping m, matched exactly: its key and value nodes.
func entry(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// sourceSection finds a source's section under sources. Unlike the other
// keys, nfd-worker matches these exactly: sources is a map keyed by source
// name, so sources.Custom is ignored (pkg/discover reads it the same way).
func sourceSection(sources *yaml.Node, name string) *yaml.Node {
	return ys.Value(sources, name)
}

// blockIndent is the indentation of the first non-blank line after line
// (1-based) of data: where a block scalar's text starts.
func blockIndent(data []byte, line int) int {
	lines := strings.Split(string(data), "\n")
	for i := line; i < len(lines); i++ {
		if t := strings.TrimLeft(lines[i], " "); t != "" {
			return len(lines[i]) - len(t)
		}
	}
	return 0
}

func first(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return doc.Content[0]
	}
	return nil
}

// lookup finds key in mapping m, case-insensitively.
func lookup(m *yaml.Node, key string) *yaml.Node {
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

// withholds reports whether the configuration's noPublishFeatures leaves
// feature out of the published NodeFeature: a pattern matches the key
// exactly, or as a prefix when it ends in "*".
func (wc *WorkerConfig) withholds(feature string) (string, bool) {
	for _, p := range wc.NoPublish {
		if prefix, ok := strings.CutSuffix(p, "*"); (ok && strings.HasPrefix(feature, prefix)) || (!ok && feature == p) {
			return p, true
		}
	}
	return "", false
}

// customOps are the operators nfd-worker v0.19's custom source accepts.
var customOps = []string{"In", "NotIn", "InRegexp", "Exists", "DoesNotExist", "Gt", "Lt", "GtLt", "IsTrue", "IsFalse"}

// workerChecks checks the rules against the worker configuration: rules
// consuming a withheld feature (no-publish-feature), and custom rules the
// custom source refuses or misreads (worker-custom-rule).
func (c *checker) workerChecks(wc *WorkerConfig) {
	known := c.inputFeatures()
	for _, r := range c.allRules() {
		for _, t := range r.terms() {
			name := strings.ToLower(t.term.Feature)
			if strings.HasPrefix(name, "rule.") || known[name] {
				continue
			}
			if p, ok := wc.withholds(name); ok {
				c.add(r.doc, r.ref, diag.Error, "no-publish-feature", t.field+".feature", false,
					fmt.Sprintf("the nfd-worker configuration %s withholds %s (core.noPublishFeatures %q): nfd-master never sees it, so this term never matches", wc.name(), t.term.Feature, p))
			}
		}
	}
	if wc.custom == nil {
		return
	}
	for i, rule := range wc.custom.Content {
		path := fmt.Sprintf("sources.custom[%d]", i)
		for _, m := range matchers(rule, path) {
			c.customTerms(wc, m.node, m.path)
		}
	}
}

type pathNode struct {
	node *yaml.Node
	path string
}

// matchers are a custom rule's matchFeatures and matchAny[].matchFeatures.
func matchers(rule *yaml.Node, path string) []pathNode {
	var out []pathNode
	if m := lookup(rule, "matchFeatures"); m != nil {
		out = append(out, pathNode{m, path + ".matchFeatures"})
	}
	if any := lookup(rule, "matchAny"); any != nil {
		for j, e := range any.Content {
			if m := lookup(e, "matchFeatures"); m != nil {
				out = append(out, pathNode{m, fmt.Sprintf("%s.matchAny[%d].matchFeatures", path, j)})
			}
		}
	}
	return out
}

// customTerms checks the expressions of one custom-rule matcher.
func (c *checker) customTerms(wc *WorkerConfig, terms *yaml.Node, path string) {
	for k, term := range terms.Content {
		exprs := lookup(term, "matchExpressions")
		if exprs == nil || exprs.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(exprs.Content); i += 2 {
			name, e := exprs.Content[i].Value, exprs.Content[i+1]
			field := fmt.Sprintf("%s[%d].matchExpressions.%s", path, k, name)
			if op := lookup(e, "op"); op != nil && !slices.Contains(customOps, op.Value) {
				c.workerFinding(wc, op, field+".op", fmt.Sprintf("op %q is not an operator of nfd-worker's custom source (%s): nfd-worker refuses the configuration", op.Value, strings.Join(customOps, ", ")))
			}
			if typ := lookup(e, "type"); typ != nil {
				c.workerFinding(wc, typ, field+".type", fmt.Sprintf("nfd-worker's custom source has no type field: it ignores type %q and compares the values as integers", typ.Value))
			}
		}
	}
}

// workerFinding is an error at a node of the worker configuration.
func (c *checker) workerFinding(wc *WorkerConfig, n *yaml.Node, field, msg string) {
	pos := diag.Position{File: wc.File, Line: n.Line + wc.lineOffset, Column: n.Column + wc.indent}
	if wc.Object.Kind != "" {
		field = fmt.Sprintf("data[%s].%s", WorkerConfigKey, field)
	}
	c.findings = append(c.findings, diag.Diagnostic{Severity: diag.Error, Check: "worker-custom-rule", Object: wc.Object, Field: field, Pos: pos, Message: msg})
}
