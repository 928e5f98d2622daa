package v1alpha1

import (
	"reflect"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// serverMetadata is every field of Kubernetes object metadata, taken from
// apimachinery's own metav1.ObjectMeta: uid, resourceVersion, generation,
// creationTimestamp, managedFields, ownerReferences, finalizers and the
// rest the API server writes. An object read back from a cluster carries
// them; nfd-fn accepts them and decodes only the fields it uses.
var serverMetadata = jsonNames(reflect.TypeOf(metav1.ObjectMeta{}))

// IgnoredFields lets the strict decoder accept every ObjectMeta field.
func (ObjectMeta) IgnoredFields() map[string]bool { return serverMetadata }

// statusOnly accepts a status written by the API server on the kinds that
// have none nfd-fn reads.
var statusOnly = map[string]bool{"status": true}

// IgnoredFields accepts the status of a NodeFeature read back from a cluster.
func (NodeFeature) IgnoredFields() map[string]bool { return statusOnly }

// IgnoredFields accepts the status of a NodeFeatureRule read back from a
// cluster.
func (NodeFeatureRule) IgnoredFields() map[string]bool { return statusOnly }

func jsonNames(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}
