package fn

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/lint"
	"github.com/nfd-fn/nfd-fn/pkg/ruletest"
)

// listSource is what one RuleTest among a ResourceList's items renders
// under kpt (mode test): the items its spec.inputs name, and the settings
// its spec.config, spec.workerConfig and spec.nfdVersion give. A KRM
// function reads no files, so each path is looked up among the items'
// path annotations, relative to the RuleTest's own.
type listSource struct {
	// Key is the same for RuleTests that share one render.
	Key string
	// Items are the items the inputs name.
	Items []*krm.Item
	// Settings is set when the RuleTest names a config item: that item's
	// settings replace the functionConfig's.
	Settings *config.Settings
	// Worker is the nfd-worker configuration the RuleTest names (nil:
	// the nfd-worker.conf ConfigMap among Items, if any).
	Worker *lint.WorkerConfig
	// Version is spec.nfdVersion ("" when not written).
	Version string
	// Problems are about the RuleTest's settings (a path not among the
	// items, a config with errors); with an error the RuleTest is not run.
	Problems diag.List
}

// suiteListSource resolves the inputs and settings of suite, the RuleTest
// item it, among rl's items.
func suiteListSource(rl *krm.ResourceList, suite *ruletest.Suite, it *krm.Item) listSource {
	src := listSource{Version: suite.NFDVersion}
	on := inputs.AboutItem(it, "", diag.Diagnostic{Severity: diag.Error})
	fail := func(e ruletest.Entry, format string, args ...any) {
		d := on
		d.Field = e.Field
		d.Pos.Line, d.Message = modes.LineOf(it.ReadFromFile(), e.Line, e.Field+": "+fmt.Sprintf(format, args...))
		src.Problems = append(src.Problems, d)
	}
	if it.File == "" {
		return wholeList(rl, suite, on, src)
	}
	dir := path.Dir(it.File)
	var key []string
	for _, in := range suite.InputsAt {
		at := itemsUnder(rl, path.Join(dir, in.Key), false)
		if len(at) == 0 {
			fail(in, "%s: %s", in.Key, notAnItem(path.Join(dir, in.Key)))
		}
		src.Items = append(src.Items, at...)
	}
	src.Items = distinctItems(src.Items)
	for _, x := range src.Items {
		key = append(key, strconv.Itoa(x.Pos))
	}
	if e := suite.ConfigAt; e.Key != "" {
		key = append(key, "config="+src.useConfig(rl, path.Join(dir, e.Key), e, fail))
	}
	if e := suite.WorkerConfigAt; e.Key != "" {
		key = append(key, "worker="+src.useWorker(rl, path.Join(dir, e.Key), e, fail))
	}
	src.Key = strings.Join(append(key, "version="+src.Version), "\x00")
	return src
}

// useConfig reads the functionConfig item at file into src.Settings; its
// problems are the RuleTest's, at e. It returns the key part of the item.
func (src *listSource) useConfig(rl *krm.ResourceList, file string, e ruletest.Entry, fail func(ruletest.Entry, string, ...any)) string {
	at := itemsAt(rl, file)
	if len(at) == 0 {
		fail(e, "%s: %s", e.Key, notAnItem(file))
		return ""
	}
	s, problems := config.Load(inputs.ItemTree(at[0]))
	for _, p := range problems {
		fail(e, "%s: %s", e.Key, strings.TrimPrefix(p.Field+": ", ": ")+p.Message)
		if p.Severity != diag.Error {
			src.Problems[len(src.Problems)-1].Severity = p.Severity
		}
	}
	src.Settings = &s
	return strconv.Itoa(at[0].Pos)
}

// useWorker reads the nfd-worker.conf ConfigMap at file into src.Worker;
// its problems are the RuleTest's, at e. It returns the key part of the
// item.
func (src *listSource) useWorker(rl *krm.ResourceList, file string, e ruletest.Entry, fail func(ruletest.Entry, string, ...any)) string {
	at := itemsAt(rl, file)
	wc, problems := listWorkerConfig(&krm.ResourceList{Items: at})
	for _, p := range problems {
		fail(e, "%s: %s", e.Key, p.Message)
	}
	if wc == nil && len(problems) == 0 {
		fail(e, "%s: %s", e.Key, "no ConfigMap holding "+lint.WorkerConfigKey+" among the items at this path (under kpt, a RuleTest's workerConfig names such a ConfigMap in the package)")
		return ""
	}
	src.Worker = wc
	if len(at) == 0 {
		return ""
	}
	return strconv.Itoa(at[0].Pos)
}

// Apply gives s the RuleTest's own settings: its config's in place of
// the functionConfig's, with what over sets (the command line's, whose
// problems are then reported here: the functionConfig's are not), then
// its release.
func (src *listSource) Apply(s *config.Settings, over func(*config.Settings) diag.List) diag.List {
	var problems diag.List
	if src.Settings != nil {
		*s = *src.Settings
		problems = over(s)
	}
	if src.Version == "" {
		return problems
	}
	return append(problems, s.UseRelease(src.Version)...)
}

// wholeList is the source of a RuleTest with no path annotation (kustomize
// gives none, nor does a hand-made list): its paths cannot be looked up,
// so it renders every item with the functionConfig's settings (and its
// nfdVersion), and an info result says so.
func wholeList(rl *krm.ResourceList, suite *ruletest.Suite, on diag.Diagnostic, src listSource) listSource {
	src.Items = itemsUnder(rl, ".", true)
	src.Key = "all\x00version=" + src.Version
	d := on
	d.Severity, d.Field = diag.Info, suite.InputsField
	d.Message = "the RuleTest has no path annotation (internal.config.kubernetes.io/path), so its inputs, config and workerConfig cannot be looked up among the items: it is checked against every item, with the functionConfig's settings"
	src.Problems = append(src.Problems, d)
	return src
}

// notAnItem says that no item is at file.
func notAnItem(file string) string {
	return fmt.Sprintf("no item of the package is at %s (under kpt, a RuleTest's paths name files of the package, relative to the RuleTest's file; a KRM function cannot read others)", file)
}

// itemsAt are the items of the file at file (its path annotation), but
// for RuleTests.
func itemsAt(rl *krm.ResourceList, file string) []*krm.Item {
	var out []*krm.Item
	for _, it := range rl.Items {
		if it.Kind != ruletest.Kind && it.File != "" && path.Clean(it.File) == file {
			out = append(out, it)
		}
	}
	return out
}

// itemsUnder are the items of the file at p or of the files under the
// directory p ("." is the whole package; with all, items with no path
// annotation too), but for RuleTests.
func itemsUnder(rl *krm.ResourceList, p string, all bool) []*krm.Item {
	var out []*krm.Item
	for _, it := range rl.Items {
		f := path.Clean(it.File)
		if it.Kind != ruletest.Kind && (it.File != "" || all) && (p == "." || f == p || strings.HasPrefix(f, p+"/")) {
			out = append(out, it)
		}
	}
	return out
}

// distinctItems keeps the first of each item, in the list's order.
func distinctItems(items []*krm.Item) []*krm.Item {
	seen := map[*krm.Item]bool{}
	out := items[:0]
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b *krm.Item) int { return a.Pos - b.Pos })
	return out
}
