package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// staticCustomRules are the rules nfd-worker's custom source always runs
// first (source/custom/static_features.go).
func staticCustomRules() []*v1alpha1.Rule {
	exists := &v1alpha1.MatchExpression{Op: v1alpha1.MatchExists}
	return []*v1alpha1.Rule{
		{
			Name:   "RDMA capable static rule",
			Labels: map[string]string{"rdma.capable": "true"},
			MatchFeatures: v1alpha1.FeatureMatcher{{
				Feature:          "pci.device",
				MatchExpressions: &v1alpha1.MatchExpressionSet{"vendor": {Op: v1alpha1.MatchIn, Value: v1alpha1.MatchValue{"15b3"}}},
			}},
		},
		{
			Name:   "RDMA available static rule",
			Labels: map[string]string{"rdma.available": "true"},
			MatchFeatures: v1alpha1.FeatureMatcher{{
				Feature:          "kernel.loadedmodule",
				MatchExpressions: &v1alpha1.MatchExpressionSet{"ib_uverbs": exists, "rdma_ucm": exists},
			}},
		},
	}
}

// customLabels is the custom label source (source/custom/custom.go): the
// static rules, the worker config's sources.custom (e.customRules) and
// the custom.d rule files run in that order through pkg/engine, each rule
// that runs without error feeding its labels and vars back as
// rule.matched for the later ones. The features given are not modified.
func customLabels(e *env, features v1alpha1.Features, c *collector) map[string]string {
	rules := e.customRules
	if !e.offline {
		rules = append(rules[:len(rules):len(rules)], compileRules(readCustomDir(e.host, "nfd-worker "+e.rel.name, c))...)
	}
	const backrefs = v1alpha1.RuleBackrefDomain + "." + v1alpha1.RuleBackrefFeature
	// The rules read the features and a rule.matched of their own: only
	// the map of attribute features is copied, and rule.matched's
	// elements once a rule has run.
	work := features
	work.Attributes = maps.Clone(features.Attributes)
	var matched map[string]string
	labels := map[string]string{}
	for _, r := range rules {
		out, _, err := r.rule.Evaluate(&work)
		if err != nil {
			c.warnQuoting("failed to execute a custom rule", "failed to execute rule %s: %v", r.name, err)
			continue
		}
		mergeInto(labels, out.Labels)
		if matched == nil {
			if matched = maps.Clone(work.Attributes[backrefs].Elements); matched == nil {
				matched = map[string]string{}
			}
			if work.Attributes == nil {
				work.Attributes = map[string]v1alpha1.AttributeFeatureSet{}
			}
			work.Attributes[backrefs] = v1alpha1.AttributeFeatureSet{Elements: matched}
		}
		mergeInto(matched, out.Labels)
		mergeInto(matched, out.Vars)
	}
	return labels
}

// customRule is a custom rule compiled once for every node it runs on.
type customRule struct {
	name string
	rule *engine.SingleRule
}

// compileRules compiles custom rules.
func compileRules(rules []*v1alpha1.Rule) []customRule {
	out := make([]customRule, len(rules))
	for i, r := range rules {
		out[i] = customRule{name: r.Name, rule: engine.CompileRule(r)}
	}
	return out
}

// configuredRules are the rules the custom source runs whatever the host
// holds, compiled: the static rules, then the configuration's
// sources.custom.
func configuredRules(cfg workerConfig) []customRule {
	rules := staticCustomRules()
	for _, r := range cfg.Sources.Custom {
		rules = append(rules, r.toRule())
	}
	return compileRules(rules)
}

// readCustomDir reads the rule files of custom.d below the host root and
// of its first-level subdirectories, in name order, as nfd-worker does
// (source/custom/directory_features.go): entries are classified without
// following symlinks (a link to a directory is read as a file and fails,
// a link to a file is read through the link, resolved inside the root),
// directories are entered before dot-files are skipped, and a file that
// does not decode strictly is skipped whole with a warning naming it.
func readCustomDir(h host, who string, c *collector) []*v1alpha1.Rule {
	var rules []*v1alpha1.Rule
	var walk func(dir string, recurse bool)
	walk = func(dir string, recurse bool) {
		ents, err := h.readDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				c.warn("unable to access directory: %v", err)
			}
			return
		}
		for _, ent := range ents {
			p := path.Join(dir, ent.Name())
			switch {
			case ent.IsDir() && recurse:
				walk(p, false)
			case ent.IsDir(), strings.HasPrefix(ent.Name(), "."):
			default:
				rules = append(rules, readCustomFile(h, p, who, c)...)
			}
		}
	}
	walk(customDirRel, true)
	return rules
}

// readCustomFile parses one custom.d file; who ("nfd-worker v0.19") names
// the reader in warnings.
func readCustomFile(h host, p, who string, c *collector) []*v1alpha1.Rule {
	raw, err := h.readFile(p)
	if err != nil {
		c.warn("could not read file %s: %v", p, err)
		return nil
	}
	rules, err := parseCustomFile(raw)
	if err != nil {
		c.warnQuoting(fmt.Sprintf("could not parse file %s, skipping it%s", p, lineOf(err)),
			"could not parse file %s, skipping it: %s", p, strings.Join(strings.Fields(err.Error()), " "))
		return nil
	}
	for _, f := range ignoredCustomFields(raw, who) {
		c.warnQuoting(fmt.Sprintf("%s: %s", p, f.brief()), "%s: %s", p, f)
	}
	out := make([]*v1alpha1.Rule, len(rules))
	for i, r := range rules {
		out[i] = r.toRule()
	}
	return out
}

// ignoredCustomFields lists the fields of a custom.d file that decoded
// but that nfd-worker ignores (inside expressions, where its decoder is
// lenient), and the unquoted values it reads otherwise than written.
func ignoredCustomFields(raw []byte, who string) []fieldProblem {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil
	}
	return checkFields(&doc, customRulesShape(), "", who)
}

// lineOf returns ": line N" when a decoding error names its line, else "".
func lineOf(err error) string {
	if m := regexp.MustCompile(`line (\d+)`).FindStringSubmatch(err.Error()); m != nil {
		return ": line " + m[1]
	}
	return ""
}

// copyFeatures returns a copy of f whose maps can be changed freely.
func copyFeatures(f v1alpha1.Features) v1alpha1.Features {
	out := newFeatures()
	mergeFeatures(&out, f)
	return out
}

// kconfigStore holds the legacy form of the kernel config the kernel
// source read ("y" and "m" read "true", other values as in kernel.config),
// for the kernel label source, as nfd-worker's kernel source keeps it.
type kconfigStore struct {
	mu sync.Mutex
	m  map[string]string
}

// set records the legacy kernel config.
func (s *kconfigStore) set(m map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = m
}

// get returns the legacy kernel config, nil when none was read.
func (s *kconfigStore) get() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m
}
