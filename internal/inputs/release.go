package inputs

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// The checks of the release in use.
const (
	checkReleaseAssumed  = "release-assumed"
	checkReleaseMismatch = "release-mismatch"
	// checkReleaseUnreadable: an NFD image that names no release nfd-fn
	// knows.
	checkReleaseUnreadable = "release-unreadable"
)

// AdmitList settles the NFD release a run over a ResourceList renders as
// (into s) and has its API server admit the set's rules and groups
// (admission.Admit). Without nfdVersion the release the input shows is
// used (the nfd-master Deployment's or nfd-worker DaemonSet's image, the
// NodeFeatures' worker.version annotation), with an info note saying so;
// a release given that the input contradicts is a warning. It returns the
// problems of settings the release does not have (about the
// functionConfig), and the notes and admission's findings.
func AdmitList(rl *krm.ResourceList, set *objects.Set, s *config.Settings) (settings, found diag.List) {
	images := workloadReleases(rl.Items)
	seen := append(images.seen(), workerAnnotations(set)...)
	notes := settleRelease(seen, s)
	notes = append(notes, images.unreadNotes(s)...)
	for _, sh := range seen {
		s.MasterShown(sh.masterNs)
	}
	notes = append(notes, settleCRDs(crdsOf(rl.Items), s)...)
	settings = s.ReleaseProblems()
	return settings, append(notes, admission.Admit(set, s.Options.NFDRelease(), s.StrictFieldValidation)...)
}

// Admit is AdmitList for the files read (validate, explain and plan
// over files): the release an nfd-master Deployment or nfd-worker
// DaemonSet among them shows, else the NodeFeatures' worker.version
// annotation, is used when s names none; s is updated. It returns the
// notes and the problems of settings the release does not have, and
// admission's findings; it must run once every file has been read.
func (fr *Reader) Admit(s *config.Settings) diag.List {
	seen := append(fr.images.seen(), workerAnnotations(fr.set)...)
	out := append(settleRelease(seen, s), fr.images.unreadNotes(s)...)
	out = append(out, settleCRDs(fr.crds, s)...)
	for _, sh := range seen {
		s.MasterShown(sh.masterNs)
	}
	out = append(out, s.ReleaseProblems()...)
	out = append(out, admission.Admit(fr.set, s.Options.NFDRelease(), s.StrictFieldValidation)...)
	fr.Locate(out)
	return out
}

// settleRelease picks the release to render as: the one given, else the
// first the input shows (an info note), and warns when the input
// contradicts the release given or itself.
func settleRelease(seen []shown, s *config.Settings) (notes diag.List) {
	if len(seen) == 0 {
		return nil
	}
	first := seen[0]
	first.rel.By = "nfdVersion unset; the input shows it"
	switch given := s.Options.NFDRelease(); {
	case !s.ReleaseGiven && first.rel.Name == given.Name:
		// The input shows the default release: no note, but the release
		// is known now, not assumed (no NFD304).
		s.SetRelease(first.rel)
	case !s.ReleaseGiven:
		s.SetRelease(first.rel)
		notes = append(notes, first.at(diag.Info, checkReleaseAssumed,
			fmt.Sprintf("rendering as NFD %s, the release %s shows (set nfdVersion to choose another)", first.rel, first.where)))
	case first.rel.Name != given.Name:
		notes = append(notes, first.at(diag.Warning, checkReleaseMismatch,
			fmt.Sprintf("rendering as NFD %s, but %s shows %s", given.Chosen(), first.where, first.rel)))
	}
	for _, other := range seen[1:] {
		if other.rel.Name != first.rel.Name {
			notes = append(notes, other.at(diag.Warning, checkReleaseMismatch,
				fmt.Sprintf("the input shows two NFD releases: %s in %s, %s in %s", first.rel, first.where, other.rel, other.where)))
			break
		}
	}
	return notes
}

// shown is a release the input shows, and where: in words, and as the
// object, field and position a note about it points at; masterNs is the
// namespace of the nfd-master Deployment showing it.
type shown struct {
	rel      release.Release
	where    string
	masterNs string
	ref      diag.ObjectRef
	field    string
	pos      diag.Position
	// why says why an image shows no release (release.Unreadable).
	why string
}

// at is a note about the release shown, pointing where it was shown.
func (sh shown) at(sev diag.Severity, check, msg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: sev, Check: check, Object: sh.ref, Field: sh.field, Pos: sh.pos, Message: msg}
}

// imagesShown is what the nfd-master Deployments and nfd-worker
// DaemonSets of an input show: the releases their images name, and the
// NFD images whose release cannot be read.
type imagesShown struct {
	masters, workers, unread []shown
}

// seen are the releases shown, the most telling (masters) first.
func (w imagesShown) seen() []shown { return append(slices.Clone(w.masters), w.workers...) }

// add adds what more images show.
func (w *imagesShown) add(more imagesShown) {
	w.masters = append(w.masters, more.masters...)
	w.workers = append(w.workers, more.workers...)
	w.unread = append(w.unread, more.unread...)
}

// workloadReleases reads the NFD images of the Deployments and
// DaemonSets among items.
func workloadReleases(items []*krm.Item) imagesShown {
	var w imagesShown
	for _, it := range items {
		if it.Kind != "Deployment" && it.Kind != "DaemonSet" {
			continue
		}
		tree := ItemTree(it)
		for _, img := range nfdImages(tree) {
			sh := shown{where: fmt.Sprintf("the %s %s (image %s)", it.Kind, it.Name, img.image),
				ref: diag.ObjectRef{APIVersion: it.APIVersion, Kind: it.Kind, Namespace: it.Namespace, Name: it.Name}, field: img.field}
			sh.pos = objects.Origin{File: it.File, Index: it.Index, Node: tree}.Position(img.field, false)
			rel, ok := release.FromImage(img.image)
			switch {
			case !ok:
				sh.why = release.Unreadable(img.image)
				w.unread = append(w.unread, sh)
			case it.Kind == "Deployment":
				sh.rel, sh.masterNs = rel, it.Namespace
				w.masters = append(w.masters, sh)
			default:
				sh.rel = rel
				w.workers = append(w.workers, sh)
			}
		}
	}
	return w
}

// unreadNotes warn, when nfdVersion is not given, of each NFD image whose
// release cannot be read: the release rendered as may not be the
// cluster's (check release-unreadable).
func (w imagesShown) unreadNotes(s *config.Settings) diag.List {
	if s.ReleaseGiven {
		return nil
	}
	var notes diag.List
	for _, sh := range w.unread {
		notes = append(notes, sh.at(diag.Warning, checkReleaseUnreadable,
			fmt.Sprintf("%s is %s, so nfd-fn cannot tell the NFD release the cluster runs: rendering as NFD %s; set nfdVersion (or --nfd-version) to it (%s)",
				sh.where, sh.why, s.Options.NFDRelease().Chosen(), strings.Join(release.Supported(), ", "))))
	}
	return notes
}

// image is an NFD container image of a workload and the field naming it.
type image struct{ image, field string }

// nfdImages are the container images of a workload object that are
// NFD's, with their fields.
func nfdImages(n *yaml.Node) []image {
	spec := krm.MapAt(krm.MapAt(krm.MapAt(n, "spec"), "template"), "spec")
	var out []image
	for _, key := range []string{"containers", "initContainers"} {
		list := krm.ValueAt(spec, key)
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for i, c := range list.Content {
			if img := krm.ScalarAt(c, "image"); strings.Contains(img, "node-feature-discovery") {
				out = append(out, image{img, fmt.Sprintf("spec.template.spec.%s[%d].image", key, i)})
			}
		}
	}
	return out
}

// workerAnnotations is the release most of the NodeFeatures' nfd-worker
// annotation names, if any.
func workerAnnotations(set *objects.Set) []shown {
	count := map[string]int{}
	rels := map[string]release.Release{}
	firstAt := map[string]int{}
	for i := range set.Features {
		v := set.Features[i].Obj.Metadata.Annotations[release.WorkerVersionAnnotation]
		if rel, ok := release.FromBuildVersion(v); ok {
			if count[rel.Name] == 0 {
				firstAt[rel.Name] = i
			}
			count[rel.Name]++
			rels[rel.Name] = rel
		}
	}
	if len(count) == 0 {
		return nil
	}
	names := slices.Collect(maps.Keys(count))
	slices.SortFunc(names, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	best := names[0]
	first := &set.Features[firstAt[best]]
	return []shown{{rel: rels[best], where: fmt.Sprintf("the %s annotation of %d NodeFeature(s)", release.WorkerVersionAnnotation, count[best]),
		ref: objects.FeatureRef(first.Obj), pos: first.Origin.Position("", false)}}
}

// ItemTree is an item's object, parsed if it was read lean; nil when it
// does not parse.
func ItemTree(it *krm.Item) *yaml.Node {
	n := it.Node
	if n == nil && it.Raw != nil {
		n, _ = it.ParseTree()
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	return n
}

// checkCRDVersion is the check of CRDs of another release than the
// operand's.
const checkCRDVersion = "crd-version"

// nfdCRDSuffix ends the names of NFD's CustomResourceDefinitions.
const nfdCRDSuffix = ".nfd.k8s-sigs.io"

// shownCRD is an NFD CustomResourceDefinition of the input: the release
// its labels name (labelled), else the minor releases its schema matches.
type shownCRD struct {
	it       *krm.Item
	labelled release.Release
	where    string
	minors   []int
}

// crdsOf reads the NFD CustomResourceDefinitions among items, the
// NodeFeatureRule CRD first (its schema tells the releases apart).
func crdsOf(items []*krm.Item) []shownCRD {
	var out []shownCRD
	for _, it := range items {
		if it.Kind == "CustomResourceDefinition" && strings.HasSuffix(it.Name, nfdCRDSuffix) {
			if c, ok := readCRD(it); ok {
				out = append(out, c)
			}
		}
	}
	rule := func(c shownCRD) int {
		if c.it.Name == "nodefeaturerules"+nfdCRDSuffix {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b shownCRD) int { return cmp.Compare(rule(a), rule(b)) })
	return out
}

// readCRD reads what release an NFD CRD item shows: its
// app.kubernetes.io/version or helm.sh/chart label, else its schema.
func readCRD(it *krm.Item) (shownCRD, bool) {
	n := ItemTree(it)
	labels := krm.MapAt(krm.MapAt(n, "metadata"), "labels")
	if v := krm.ScalarAt(labels, "app.kubernetes.io/version"); v != "" {
		if r, ok := release.FromBuildVersion(v); ok {
			return shownCRD{it: it, labelled: r, where: "its app.kubernetes.io/version label " + v}, true
		}
	}
	if chart := krm.ScalarAt(labels, "helm.sh/chart"); strings.HasPrefix(chart, "node-feature-discovery-") {
		if r, ok := release.FromBuildVersion(strings.TrimPrefix(chart, "node-feature-discovery-")); ok {
			return shownCRD{it: it, labelled: r, where: "its helm.sh/chart label " + chart}, true
		}
	}
	raw, err := yaml.Marshal(n)
	if err != nil {
		return shownCRD{}, false
	}
	_, minors, err := admission.CRDMinors(raw)
	if err != nil || len(minors) == 0 {
		return shownCRD{}, false
	}
	return shownCRD{it: it, minors: minors, where: "its schema"}, true
}

// release is the release the CRD is of: the labelled one, else the
// operand's minor when the schema matches it, else the newest it
// matches.
func (c shownCRD) release(operand int) (release.Release, bool) {
	if c.labelled.Name != "" {
		return c.labelled, true
	}
	minor := c.minors[len(c.minors)-1]
	if slices.Contains(c.minors, operand) {
		minor = operand
	}
	return admission.SchemaRelease(minor)
}

// settleCRDs compares the first NFD CustomResourceDefinition the input
// holds with the settings: when crdVersion names none, objects are
// admitted with that CRD's release, and a warning says so when it is not
// the operand's (a CRD chart that lags its operand); when crdVersion
// names another, a warning says the input contradicts it.
func settleCRDs(crds []shownCRD, s *config.Settings) diag.List {
	if len(crds) == 0 {
		return nil
	}
	c := crds[0]
	operand := s.Options.NFDRelease()
	crd, ok := c.release(operand.Schema.Minor)
	if !ok {
		return nil
	}
	note := func(msg string) diag.List {
		return diag.List{AboutItem(c.it, "", diag.Diagnostic{Severity: diag.Warning, Check: checkCRDVersion, Message: msg})}
	}
	switch {
	case s.CRDs.Name != "" && s.CRDs.Schema.Minor != crd.Schema.Minor:
		return note(fmt.Sprintf("admitting with NFD %s's CRDs (crdVersion), but this CRD is %s's (%s)", s.CRDs, crd, c.where))
	case s.CRDs.Name == "" && operand.Schema.Minor != crd.Schema.Minor:
		s.UseCRDs(crd.Name)
		return note(fmt.Sprintf("this CRD is NFD %s's (%s), not the operand's (%s, whose CRDs are %s's): the API server admits objects with its schema, and so does nfd-fn (set crdVersion to choose)",
			crd, c.where, operand, operand.Schema))
	}
	return nil
}
