package fn

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/modes"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/nova"
	"github.com/nfd-fn/nfd-fn/pkg/version"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// The ConfigMap that carries the Nova provider config nfd-fn writes.
const (
	// NovaConfigMapName is its name.
	NovaConfigMapName = "nfd-fn-nova-provider-config"
	// NovaDataKey is its data key: the file name for
	// /etc/nova/provider_config/.
	NovaDataKey = nova.FileName
	// NovaGeneratedAnnotation marks it as nfd-fn's, with the value
	// NovaGeneratedValue: such a ConfigMap is rewritten on every render,
	// any other provider config in the package is the operator's.
	NovaGeneratedAnnotation = "nfd-fn.dev/generated"
	NovaGeneratedValue      = "nova-provider-config"
)

// writeNova writes the Nova provider config for the rendered nodes
// (modes.BuildNova, reconciled with the package's own provider configs,
// modes.EncodeNova) into the list's generated ConfigMap (made when there
// is none), after checking the provider configs already in the package
// against Nova's schema; it returns what it found. It does nothing unless
// s enables the Nova provider config.
func writeNova(rl *krm.ResourceList, s config.Settings, nodes []master.NodeResult) diag.List {
	ns := s.Nova
	if !ns.Enabled {
		return nil
	}
	r := &findings{}
	found := findProviderConfigs(rl, r)
	target := novaTarget(rl, found.generated, ns.Path, r)
	built, names, problems := modes.BuildNova(nodes, s)
	field := yamlstrict.JoinKey("data", NovaDataKey)
	for _, d := range problems {
		r.addAt(target, field, d)
	}
	doc := reconcileNova(built, names, found.hand, target, r)
	text, problems := modes.EncodeNova(doc)
	for _, d := range problems {
		r.addAt(target, field, d)
	}
	if text == nil {
		return r.list
	}
	if ns.Capture != nil {
		*ns.Capture = text
	}
	if syncNovaConfigMap(target, string(text), ns.Path) {
		stampNovaVersion(target.Node)
		target.Changed = true
	}
	return r.list
}

// checkProviderConfigs checks the hand-written Nova provider configs in
// the package (ConfigMap data entries, or items that are one) against
// Nova's schema, for mode validate.
func checkProviderConfigs(rl *krm.ResourceList) diag.List {
	r := &findings{}
	findProviderConfigs(rl, r)
	return r.list
}

// findings collects what is found about the list's items.
type findings struct{ list diag.List }

// add records a diagnostic about an item (nil: about the run as a whole)
// and a field in it.
func (r *findings) add(sev diag.Severity, it *krm.Item, field, msg string) {
	r.addAt(it, field, diag.Diagnostic{Severity: sev, Message: msg})
}

// addAt records d about an item (inputs.AboutItem).
func (r *findings) addAt(it *krm.Item, field string, d diag.Diagnostic) {
	r.list = append(r.list, inputs.AboutItem(it, field, d))
}

// providerFile is a provider config found in the package: a data entry of
// a ConfigMap, or an item that is itself a provider config.
type providerFile struct {
	it  *krm.Item
	key string // data key; empty when the item is the file
	// index is the item's position in the input, to name a bare file.
	index int
	doc   *nova.Document
}

// field is the path of the file in its item.
func (f *providerFile) field() string {
	if f.key == "" {
		return ""
	}
	return yamlstrict.JoinKey("data", f.key)
}

// report records d, a diagnostic about the file with Field the path inside
// it. The item's field holds the whole file as one string, so that path
// goes into the message.
func (f *providerFile) report(r *findings, d diag.Diagnostic) {
	inner := d.Field
	if f.key == "" {
		// A bare file has no identity for resourceRef: say where it is.
		where := f.name()
		if inner != "" {
			where += " " + inner
		}
		d.Message = where + ": " + d.Message
		r.addAt(nil, "", d)
		return
	}
	if inner != "" {
		d.Message = inner + ": " + d.Message
	}
	r.addAt(f.it, f.field(), d)
}

// name says where the file is, for messages about another file.
func (f *providerFile) name() string {
	where := f.it.File
	switch {
	case where == "" && f.it.Kind == "":
		where = fmt.Sprintf("items[%d] (a provider config without apiVersion and kind)", f.index)
	case where == "":
		where = fmt.Sprintf("%s %s", f.it.Kind, f.it.Name)
	}
	if f.key != "" {
		where += " " + f.field()
	}
	return where
}

type foundConfigs struct {
	generated []*krm.Item
	hand      []*providerFile
}

// findProviderConfigs sorts the package's provider configs into nfd-fn's
// own ConfigMaps and the operator's files, and validates the latter.
func findProviderConfigs(rl *krm.ResourceList, r *findings) foundConfigs {
	var found foundConfigs
	for index, it := range rl.Items {
		if it.ParseErr != nil {
			continue
		}
		switch {
		case it.APIVersion == "v1" && it.Kind == "ConfigMap":
			n := it.Tree()
			if krm.ScalarAt(krm.MapAt(krm.MapAt(n, "metadata"), "annotations"), NovaGeneratedAnnotation) == NovaGeneratedValue {
				found.generated = append(found.generated, it)
				continue
			}
			found.hand = append(found.hand, configMapFiles(it, n, r)...)
		case it.APIVersion == "" && it.Kind == "":
			if f := plainFile(it); f != nil {
				f.index = index
				found.hand = append(found.hand, f)
			}
		}
	}
	for _, f := range found.hand {
		var diags diag.List
		f.doc, diags = nova.Parse([]byte(dataText(f.it, f.key)))
		for _, d := range diags {
			f.report(r, d)
		}
	}
	return found
}

// configMapFiles returns the data entries of a ConfigMap that hold a
// provider config.
func configMapFiles(it *krm.Item, n *yaml.Node, r *findings) []*providerFile {
	var out []*providerFile
	data := krm.MapAt(n, "data")
	if data == nil {
		return nil
	}
	for i := 0; i+1 < len(data.Content); i += 2 {
		key, v := data.Content[i].Value, data.Content[i+1]
		if v.Kind != yaml.ScalarNode || !nova.LooksLikeProviderConfig([]byte(v.Value)) {
			continue
		}
		f := &providerFile{it: it, key: key}
		if !strings.HasSuffix(key, ".yaml") {
			f.report(r, diag.Diagnostic{Severity: diag.Warning, Message: fmt.Sprintf(
				"nova-compute loads only *.yaml files from its provider_config_location; mounted as %q this provider config would be skipped", key)})
		}
		out = append(out, f)
	}
	return out
}

// plainFile returns an item that is a provider config by itself (no
// apiVersion or kind, but meta or providers), or nil.
func plainFile(it *krm.Item) *providerFile {
	n := it.Tree()
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	text, err := krm.Encode(n)
	if err != nil || !nova.LooksLikeProviderConfig(text) {
		return nil
	}
	return &providerFile{it: it}
}

// dataText is the text of a data entry, or the whole item for key "".
func dataText(it *krm.Item, key string) string {
	if key == "" {
		text, _ := krm.Encode(it.Node)
		return string(text)
	}
	return krm.ScalarAt(krm.MapAt(it.Node, "data"), key)
}

// novaTarget returns the generated ConfigMap to write: the existing one
// (preferring the one at path), or a new item appended to the list. Any
// other generated ConfigMap is removed, so there is only ever one.
func novaTarget(rl *krm.ResourceList, generated []*krm.Item, p string, r *findings) *krm.Item {
	if len(generated) == 0 {
		it := &krm.Item{Node: newNovaConfigMap(), APIVersion: "v1", Kind: "ConfigMap", Name: NovaConfigMapName, Changed: true}
		rl.Items = append(rl.Items, it)
		return it
	}
	keep := generated[0]
	for _, it := range generated {
		if it.File == p {
			keep = it
			break
		}
	}
	drop := map[*krm.Item]bool{}
	for _, it := range generated {
		if it != keep {
			drop[it] = true
			r.add(diag.Info, it, "", fmt.Sprintf("removed: another nfd-fn Nova provider config ConfigMap (%s) is kept, and nfd-fn writes only one", keep.File))
		}
	}
	kept := rl.Items[:0]
	for _, it := range rl.Items {
		if !drop[it] {
			kept = append(kept, it)
		}
	}
	rl.Items = kept
	return keep
}

func newNovaConfigMap() *yaml.Node {
	md := &yaml.Node{Kind: yaml.MappingNode}
	krm.SetField(md, "name", krm.StrNode(NovaConfigMapName))
	n := &yaml.Node{Kind: yaml.MappingNode}
	krm.SetField(n, "apiVersion", krm.StrNode("v1"))
	krm.SetField(n, "kind", krm.StrNode("ConfigMap"))
	krm.SetField(n, "metadata", md)
	return n
}

// syncNovaConfigMap makes the generated ConfigMap hold exactly text under
// NovaDataKey, with its marker and path annotations; everything else (a
// namespace, labels) is kept. It reports whether anything changed.
func syncNovaConfigMap(it *krm.Item, text, p string) bool {
	changed := false
	ann := krm.EnsureMap(krm.EnsureMap(it.Node, "metadata"), "annotations")
	if krm.ScalarAt(ann, NovaGeneratedAnnotation) != NovaGeneratedValue {
		krm.SetField(ann, NovaGeneratedAnnotation, krm.StrNode(NovaGeneratedValue))
		changed = true
	}
	if it.File != p || !krm.HasPath(ann) {
		krm.SetPlace(ann, p, 0)
		it.File, it.Index = p, 0
		changed = true
	}
	data := krm.MapAt(it.Node, "data")
	if data == nil || len(data.Content) != 2 || data.Content[0].Value != NovaDataKey || data.Content[1].Value != text {
		d := &yaml.Node{Kind: yaml.MappingNode}
		krm.SetField(d, NovaDataKey, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text, Style: yaml.LiteralStyle})
		krm.SetField(it.Node, "data", d)
		changed = true
	}
	return changed
}

func stampNovaVersion(n *yaml.Node) {
	krm.SetField(krm.EnsureMap(krm.EnsureMap(n, "metadata"), "annotations"), version.Annotation, krm.StrNode(version.Version))
}

// reconcileNova fits the built document to the package's hand-written
// provider configs (nova.Reconcile) and reports its findings on the files
// they are about; it returns the document to write into target.
func reconcileNova(built *nova.Document, rendered []string, hand []*providerFile, target *krm.Item, r *findings) *nova.Document {
	files := make([]nova.File, len(hand))
	for i, f := range hand {
		files[i] = nova.File{Name: f.name(), Doc: f.doc}
	}
	generated := &providerFile{it: target, key: NovaDataKey}
	doc, findings := nova.Reconcile(built, rendered, files, generated.name())
	for _, f := range findings {
		if f.File < len(hand) {
			hand[f.File].report(r, f.Diagnostic)
		} else {
			generated.report(r, f.Diagnostic)
		}
	}
	return doc
}
