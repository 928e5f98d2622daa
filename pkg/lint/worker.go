package lint

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// WorkerConfig is what lint reads of an nfd-worker configuration:
// core.noPublishFeatures, and the configuration's own problems as
// discover finds them (discover.CheckWorkerConfig: what nfd-worker
// refuses, ignores or reads otherwise), at their lines. Read it with
// ReadWorkerConfig or ReadWorkerConfigMap.
type WorkerConfig struct {
	// File is where the configuration was read from.
	File string
	// Object is the ConfigMap holding it, when it was read from an object
	// of the input (ReadWorkerConfigMap); its findings name it.
	Object diag.ObjectRef
	// NoPublish are core.noPublishFeatures' patterns ("pci.device",
	// "pci.*").
	NoPublish []string
	// Text is the configuration as nfd-worker reads it (nfd-worker.conf's
	// content), for pkg/discover's Labeler.
	Text []byte
	// problems are the configuration's own problems.
	problems []discover.ConfigProblem
	// file is the configuration, read again as the release checked
	// reads it (forRelease).
	file *discover.WorkerConfigFile
}

// ReadWorkerConfig reads an nfd-worker configuration file as discover
// --config does (discover.FindWorkerConfig): the configuration itself
// (nfd-worker.conf), a ConfigMap holding it under data["nfd-worker.conf"],
// or Helm values holding it under worker.config. A file that is not a
// configuration is an error.
func ReadWorkerConfig(data []byte, file string) (*WorkerConfig, error) {
	f, err := discover.FindWorkerConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return checked(f, &WorkerConfig{File: file})
}

// WorkerConfigKey is the ConfigMap data key nfd-worker reads its
// configuration from: NFD's Helm chart (<release>-worker-conf) and its
// kustomize deployment (nfd-worker-conf) both mount it.
const WorkerConfigKey = discover.WorkerConfigKey

// ReadWorkerConfigMap reads the nfd-worker configuration an object of the
// input holds: a ConfigMap with data["nfd-worker.conf"], as NFD's Helm
// chart and kustomize deployment make it. It returns nil, nil for any
// other object; ref names the object and file is where it is.
func ReadWorkerConfigMap(obj *yaml.Node, ref diag.ObjectRef, file string) (*WorkerConfig, error) {
	obj = ys.Resolve(obj)
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
	var probe yaml.Node
	if err := yaml.Unmarshal([]byte(conf.Value), &probe); err != nil {
		return nil, fmt.Errorf("%s is not YAML: %w", where, err)
	}
	f, err := discover.EmbeddedWorkerConfig(conf.Value, conf.Line, key.Column+1, where)
	if err != nil {
		return nil, err
	}
	return checked(f, &WorkerConfig{File: file, Object: ref})
}

// checked fills wc from the configuration f holds.
func checked(f *discover.WorkerConfigFile, wc *WorkerConfig) (*WorkerConfig, error) {
	noPublish, problems, err := discover.CheckWorkerConfig(f, "")
	if err != nil {
		return nil, err
	}
	wc.NoPublish, wc.problems, wc.file, wc.Text = noPublish, problems, f, f.Text
	return wc, nil
}

// forRelease is the configuration's noPublishFeatures and problems as the
// nfd-worker of release reads it (no noPublishFeatures before v0.19);
// nfd-worker v0.19's reading for a release discover does not model.
func (wc *WorkerConfig) forRelease(release string) ([]string, []discover.ConfigProblem) {
	if wc.file != nil {
		if noPublish, problems, err := discover.CheckWorkerConfig(wc.file, release); err == nil {
			return noPublish, problems
		}
	}
	return wc.NoPublish, wc.problems
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

// withholds reports whether the noPublishFeatures patterns leave feature
// out of the published NodeFeature: a pattern matches the key exactly, or
// as a prefix when it ends in "*".
func withholds(noPublish []string, feature string) (string, bool) {
	for _, p := range noPublish {
		if prefix, ok := strings.CutSuffix(p, "*"); (ok && strings.HasPrefix(feature, prefix)) || (!ok && feature == p) {
			return p, true
		}
	}
	return "", false
}

// workerChecks checks the rules against the worker configuration (rules
// consuming a withheld feature: no-publish-feature) and reports the
// configuration's own problems: in its custom rules worker-custom-rule,
// elsewhere worker-config; errors where nfd-worker refuses the
// configuration or ignores or misreads what is written, warnings for its
// notes. The configuration is read as the release rendered as reads it.
func (c *checker) workerChecks(wc *WorkerConfig) {
	noPublish, problems := wc.forRelease(c.opts.NFDRelease().Name)
	known := c.inputFeatures()
	for _, r := range c.allRules() {
		for _, t := range r.terms() {
			name := strings.ToLower(t.term.Feature)
			if strings.HasPrefix(name, "rule.") || known[name] {
				continue
			}
			if p, ok := withholds(noPublish, name); ok {
				c.add(r.doc, r.ref, diag.Error, "no-publish-feature", t.field+".feature", false,
					fmt.Sprintf("the nfd-worker configuration %s withholds %s (core.noPublishFeatures %q): nfd-master never sees it, so this term never matches", wc.name(), t.term.Feature, p))
			}
		}
	}
	for _, p := range problems {
		c.workerFinding(wc, p)
	}
}

// workerFinding is a finding at a problem of the worker configuration.
func (c *checker) workerFinding(wc *WorkerConfig, p discover.ConfigProblem) {
	check, sev := "worker-config", diag.Error
	if strings.HasPrefix(p.Path, "sources.custom") {
		check = "worker-custom-rule"
	}
	if p.Kind == discover.Noted {
		sev = diag.Warning
	}
	field := p.Path
	if wc.Object.Kind != "" {
		field = strings.TrimSuffix(fmt.Sprintf("data[%s].%s", WorkerConfigKey, field), ".")
	}
	c.findings = append(c.findings, diag.Diagnostic{Severity: sev, Check: check, Object: wc.Object, Field: field,
		Pos: diag.Position{File: wc.File, Line: p.Line, Column: p.Column}, Message: p.Message})
}
