package inputs

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/admission"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/release"
)

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
