package fn

import (
	"bytes"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// What kustomize writes on the items it hands a KRM function.
const (
	// kustomizeIDAnnotation is the resource id kustomize's function
	// plugin puts on every item it sends, to match the items that come
	// back; nothing else writes it.
	kustomizeIDAnnotation = "kustomize.config.k8s.io/id"
	// originAnnotation is where kustomize read an item from, with
	// `buildMetadata: [originAnnotations]` in the kustomization: a small
	// YAML map (path, and repo and ref for a remote base).
	originAnnotation = "config.kubernetes.io/origin"
)

// kustomizeRun is what nfd-fn knows of a list kustomize sent: the
// origins of its items, by object, for the errors it prints on stderr
// (kustomize shows a failing function's stderr, not its results).
type kustomizeRun struct {
	origins map[diag.ObjectRef]string
}

// readByKustomize returns the kustomize run that sent rl, or nil for a
// list kustomize did not send (kpt's, a pipe's): kustomize marks every
// item with its id, so the first item tells.
func readByKustomize(rl *krm.ResourceList) *kustomizeRun {
	if len(rl.Items) == 0 || annotation(rl.Items[0], kustomizeIDAnnotation) == "" {
		return nil
	}
	k := &kustomizeRun{}
	if annotation(rl.Items[0], originAnnotation) == "" {
		return k // no buildMetadata: [originAnnotations], so no item has one
	}
	k.origins = map[diag.ObjectRef]string{}
	for _, it := range rl.Items {
		k.add(inputs.ItemRef(it), annotation(it, originAnnotation))
	}
	// The functionConfig (the transformer's own file) carries one too.
	ref, _ := functionConfigPlace(rl.FunctionConfig)
	k.add(ref, krm.ScalarAt(krm.MapAt(krm.MapAt(rl.FunctionConfig, "metadata"), "annotations"), originAnnotation))
	return k
}

// add records the origin annotation of the object ref, under the ref and
// under the ref without its apiVersion, which a diagnostic may leave out
// (diag.ObjectRef): the rules' checks name a rule by kind and name alone.
func (k *kustomizeRun) add(ref diag.ObjectRef, annotation string) {
	o := originText(annotation)
	if o == "" {
		return
	}
	k.origins[ref] = o
	ref.APIVersion = ""
	k.origins[ref] = o
}

// maxAnnotatedItem bounds the items whose text is parsed again for an
// annotation: kustomize's are small, and a huge item of another source
// must not become a tree for this.
const maxAnnotatedItem = 1 << 20

// annotation is an annotation of an item, read from its tree, or parsed
// again from its text when the item let the tree go and the text holds
// key at all (under kustomize, lists are small).
func annotation(it *krm.Item, key string) string {
	tree := it.Node
	if tree == nil {
		if it.Raw == nil || it.ParseErr != nil || len(it.Raw) > maxAnnotatedItem || !bytes.Contains(it.Raw, []byte(key)) {
			return ""
		}
		tree, _ = it.ParseTree()
	}
	return krm.ScalarAt(krm.MapAt(krm.MapAt(tree, "metadata"), "annotations"), key)
}

// originText is an origin annotation as a place: its path, or for a
// remote base repo//path?ref=ref, kustomize's own spelling of a remote
// resource.
func originText(v string) string {
	var o struct{ Path, Repo, Ref string }
	if v == "" || yaml.Unmarshal([]byte(v), &o) != nil || o.Path == "" {
		return ""
	}
	if o.Repo == "" {
		return o.Path
	}
	s := o.Repo + "//" + o.Path
	if o.Ref != "" {
		s += "?ref=" + o.Ref
	}
	return s
}

// place fills in the file of a diagnostic about an item kustomize read
// from the file its origin annotation names.
func (k *kustomizeRun) place(d *diag.Diagnostic) {
	if k == nil || d.Pos.File != "" {
		return
	}
	if o, ok := k.origins[d.Object]; ok {
		d.Pos.File = o
		return
	}
	ref := d.Object
	ref.APIVersion = ""
	d.Pos.File = k.origins[ref]
}

// notePreviews says, in one stderr line, why kustomize build shows none
// of the n new Nodes the run wrote as local-config previews (kustomize
// drops local-config objects from its output) and which setting shows
// them.
func notePreviews(w io.Writer, s config.Settings, n int) {
	if n == 0 || s.NodeOutput != config.NodeOutputPreview {
		return
	}
	fmt.Fprintf(w, "nfd-fn: %s rendered as local-config previews, which kustomize build leaves out of its output: "+
		"set nodeOutput: apply in the functionConfig to get them (only what NFD owns, for kubectl apply --server-side)\n",
		diag.Plural(n, "new Node"))
}
