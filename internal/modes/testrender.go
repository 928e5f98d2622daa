package modes

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/config"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/explain"
	"github.com/nfd-fn/nfd-fn/pkg/labelview"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// testRun renders the suites' inputs, each distinct set of inputs,
// settings and release once.
type testRun struct {
	opts TestOptions
	// skip are the files under inputs that are not objects: the test
	// files themselves and the snapshots.
	skip  map[string]bool
	cache map[string]*rendered
}

func newTestRun(o TestOptions, suites []*ruletest.Suite) *testRun {
	t := &testRun{opts: o, skip: map[string]bool{}, cache: map[string]*rendered{}}
	for _, s := range suites {
		t.skip[filepath.Clean(s.File)] = true
		if s.Snapshot != "" {
			t.skip[filepath.Clean(relativeTo(s.File, s.Snapshot))] = true
		}
	}
	return t
}

// close gives back every render's files.
func (t *testRun) close() {
	for _, r := range t.cache {
		if r.files != nil {
			r.files.Close()
		}
	}
}

// rendered is one render of a suite's inputs: what each node gets, the
// groups' members, the findings, the rules and those that matched.
type rendered struct {
	files    *Files
	set      *objects.Set
	pipe     *master.Pipeline
	nodes    []labelview.Node
	groups   map[string][]string
	findings diag.List
	rules    []ruletest.Rule
	matched  map[string]bool
	err      error
}

// ruleID identifies a rule across suites: its object and field.
func ruleID(o diag.ObjectRef, field string) string {
	return o.String() + "\x00" + field
}

// source is what a suite renders: its input files, settings and release;
// suites with the same key share one render.
type source struct {
	paths                   []string
	config, worker, version string
	key                     string
	err                     error
}

// source resolves s's inputs, config and release.
func (t *testRun) source(s *ruletest.Suite) source {
	paths, err := t.inputFiles(s)
	if err != nil {
		return source{err: err}
	}
	src := source{paths: paths, config: relativeTo(s.File, s.Config), worker: relativeTo(s.File, s.WorkerConfig), version: s.NFDVersion}
	if src.version == "" {
		src.version = t.opts.NFDVersion
	}
	src.key = strings.Join(paths, "\n") + "\x00" + src.config + "\x00" + src.worker + "\x00" + src.version
	return src
}

// render renders a source, or returns the render of the same source an
// earlier suite made.
func (t *testRun) render(src source) *rendered {
	if src.err != nil {
		return &rendered{err: src.err}
	}
	if r, ok := t.cache[src.key]; ok {
		return r
	}
	r := t.renderFiles(src.paths, src.config, src.worker, src.version)
	t.cache[src.key] = r
	return r
}

// release gives back the files of the render of key, once no suite
// left needs it.
func (t *testRun) release(key string) {
	if r := t.cache[key]; r != nil && r.files != nil {
		r.files.Close()
	}
	delete(t.cache, key)
}

// inputFiles are the files under s's inputs, but for test files and
// snapshots.
func (t *testRun) inputFiles(s *ruletest.Suite) ([]string, error) {
	var dirs []string
	for _, in := range s.Inputs {
		dirs = append(dirs, relativeTo(s.File, in))
	}
	all, err := objects.CollectFiles(dirs)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: spec.inputs: %w", s.File, s.InputsLine, err)
	}
	var out []string
	for _, f := range all {
		if !t.skip[filepath.Clean(f)] && !strings.HasSuffix(f, ".snapshot.json") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s:%d: spec.inputs: no YAML or JSON files under %s", s.File, s.InputsLine, strings.Join(dirs, ", "))
	}
	return out, nil
}

// renderFiles reads the files with the settings of config, and checks
// and renders them as validate does (Validate), taking each node's view,
// its matched rules and the groups' members from that one render.
func (t *testRun) renderFiles(paths []string, config, worker, version string) *rendered {
	f := OpenFiles(paths, nil)
	r := &rendered{files: f}
	if found, err := f.LoadSettings(SettingsFlags{Config: config, NFDVersion: version}); err != nil {
		r.err = errors.New(settingsText("test", found, err))
		return r
	}
	s := f.Settings
	if t.opts.FeatureCatalog != nil {
		s.FeatureCatalog = t.opts.FeatureCatalog
	}
	wc, err := ReadWorkerConfig(worker)
	if err != nil {
		r.err = err
		return r
	}
	r.set = s.NewSet()
	in := f.reader(r.set)
	ds, _, err := in.Read(paths, false)
	if err != nil {
		r.err = err
		return r
	}
	ds = append(ds, in.Admit(&s)...)
	if wc == nil {
		var unread diag.List
		if wc, unread = in.WorkerConfig(); len(unread) > 0 {
			// The suite cannot run as its nfd-worker would: say why.
			r.err = fmt.Errorf("%s: %s", unread[0].Pos.File, unread[0].Message)
			return r
		}
	}
	r.check(&s, ds, wc, in.Locate)
	return r
}

// check checks and renders the set as validate does (Validate) with
// found, the problems met reading it, taking each node's view, its
// matched rules and the groups' members from that one render; locate
// places what was found at file lines.
func (r *rendered) check(s *config.Settings, found diag.List, wc *lint.WorkerConfig, locate func(diag.List)) {
	var labels *Labels
	var st *master.Stream
	r.matched = map[string]bool{}
	observe := func(p *master.Pipeline, stream *master.Stream) {
		r.pipe, st = p, stream
		labels = CollectLabels(stream, *s)
		stream.Observe(r.recordMatches)
	}
	r.findings = Validate(r.set, s, found, ValidateOptions{Worker: wc, Observe: observe})
	locate(r.findings)
	r.nodes = labels.Sorted()
	r.groups = map[string][]string{}
	for _, g := range st.Groups() {
		r.groups[groupName(g.Group.Obj.Metadata.Namespace, g.Group.Obj.Metadata.Name)] = g.Members
	}
	r.rules = ruleList(r.set, locate)
}

// recordMatches records the rules and group rules that matched a node
// (one goroutine at a time: Stream.Observe).
func (r *rendered) recordMatches(n *master.NodeResult) {
	for _, rr := range n.Rules {
		r.matched[ruleID(diag.ObjectRef(rr.Source.Object).Key(), rr.Source.Field)] = true
	}
	for _, src := range n.GroupRules {
		r.matched[ruleID(diag.ObjectRef(src.Object).Key(), src.Field)] = true
	}
}

func groupName(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// ruleList lists the rules of the set's NodeFeatureRules and
// NodeFeatureGroups in use, each at its position.
func ruleList(set *objects.Set, locate func(diag.List)) []ruletest.Rule {
	var at diag.List
	for i := range set.Rules {
		if o := &set.Rules[i]; o.Used() {
			for k, r := range o.Obj.Spec.Rules {
				at = append(at, diag.Diagnostic{Object: objects.RuleRef(o.Obj), Field: fmt.Sprintf("spec.rules[%d]", k), Message: r.Name})
			}
		}
	}
	for i := range set.Groups {
		if o := &set.Groups[i]; o.Used() {
			for k, r := range o.Obj.Spec.Rules {
				at = append(at, diag.Diagnostic{Object: objects.GroupRef(o.Obj), Field: fmt.Sprintf("spec.featureGroupRules[%d]", k), Message: r.Name})
			}
		}
	}
	set.Place(at)
	locate(at)
	out := make([]ruletest.Rule, len(at))
	for i, d := range at {
		out[i] = ruletest.Rule{Object: d.Object, Field: d.Field, Name: d.Message, Pos: d.Pos}
	}
	return out
}

// got is what the suites' checks compare against.
func (r *rendered) got() *ruletest.Got {
	return &ruletest.Got{Nodes: r.nodes, Groups: r.groups, Findings: r.findings, Explain: r.explain}
}

// explain is the explain tree, on node, of the rules that write label:
// why they did not set it.
func (r *rendered) explain(node, label string) string {
	var writers []*api.Rule
	var objs []string
	for _, o := range r.set.AcceptedRules() {
		for i := range o.Spec.Rules {
			if writesLabel(&o.Spec.Rules[i], label) {
				writers, objs = append(writers, &o.Spec.Rules[i]), append(objs, o.Metadata.Name)
			}
		}
	}
	if len(writers) == 0 {
		return "no rule in the inputs writes " + label
	}
	_, traces, ok := r.pipe.Explain(node)
	if !ok {
		return fmt.Sprintf("node %s has no NodeFeature in the inputs: no rule runs on it", node)
	}
	var b strings.Builder
	for i := range traces {
		tr := &traces[i]
		for k, w := range writers {
			if tr.Source.Object.Name == objs[k] && tr.Source.RuleName == w.Name {
				b.WriteString(explain.Rule(tr))
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// writesLabel reports whether rule may write label: a label of its own
// (unprefixed names get NFD's feature namespace), or a labelsTemplate
// that names it.
func writesLabel(rule *api.Rule, label string) bool {
	for k := range rule.Labels {
		if k == label || api.FeatureLabelNs+"/"+k == label {
			return true
		}
	}
	name := label[strings.LastIndex(label, "/")+1:]
	return rule.LabelsTemplate != "" && strings.Contains(rule.LabelsTemplate, name)
}
