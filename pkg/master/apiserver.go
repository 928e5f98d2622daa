package master

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// The API server's verdicts on the three patches nfd-master sends, in the
// order it sends them (Options.ValidateNodes). nfd-master itself relies on
// the server: what it lets through and the server refuses fails the node
// update at that patch, and the patches after it are not sent.

// checkResources judges the extended-resource status patch: the server
// takes only whole, non-negative numbers for extended resources (a
// negative quantity nfd-master lets through, as it only parses it).
func checkResources(capacity map[string]string, changed map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(changed)) {
		q, err := resource.ParseQuantity(capacity[name])
		if err != nil {
			continue // refused already by patchResources
		}
		if q.Sign() < 0 {
			return fmt.Errorf("status.capacity[%s]: Invalid value: %q: must be greater than or equal to 0", name, capacity[name])
		}
		if q.MilliValue()%1000 != 0 {
			return fmt.Errorf("status.capacity[%s]: %q: extended resources must be whole numbers", name, capacity[name])
		}
	}
	return nil
}

// checkMetadata judges the labels and annotations patch with
// apimachinery's own validation of object metadata.
func checkMetadata(labels, annotations map[string]string) error {
	errs := metavalidation.ValidateLabels(labels, field.NewPath("metadata", "labels"))
	errs = append(errs, apivalidation.ValidateAnnotations(annotations, field.NewPath("metadata", "annotations"))...)
	return errs.ToAggregate()
}

// checkTaints judges the taints patch: keys must be qualified names and
// values label values.
func checkTaints(taints []api.Taint) error {
	var errs field.ErrorList
	for i, t := range taints {
		p := field.NewPath("spec", "taints").Index(i)
		for _, msg := range k8svalidation.IsQualifiedName(t.Key) {
			errs = append(errs, field.Invalid(p.Child("key"), t.Key, msg))
		}
		for _, msg := range k8svalidation.IsValidLabelValue(t.Value) {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, msg))
		}
	}
	return errs.ToAggregate()
}
