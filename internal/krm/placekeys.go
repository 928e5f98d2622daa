package krm

import (
	"bytes"
	"strconv"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
)

// This file owns the place annotations: where an item lives in a package,
// as kpt and kyaml write them (kioutil's names). Each of the path and the
// index has a current key and a legacy twin; readers take the current
// one first, writers set both.

// PlaceKeys are the four place annotations in the order nfd-fn writes
// them: path, its legacy twin, index, its legacy twin.
var PlaceKeys = [4]string{kioutil.PathAnnotation, kioutil.LegacyPathAnnotation, kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation}

// legacyPlaceKeys are the legacy twins of the path and the index.
var legacyPlaceKeys = [2]string{kioutil.LegacyPathAnnotation, kioutil.LegacyIndexAnnotation}

// IsPlaceKey reports whether key is one of the place annotations.
func IsPlaceKey(key string) bool {
	for _, k := range PlaceKeys {
		if k == key {
			return true
		}
	}
	return false
}

// PlaceValues are the four place annotations' values for file and index,
// in PlaceKeys' order.
func PlaceValues(file string, index int) [4]string {
	i := strconv.Itoa(index)
	return [4]string{file, file, i, i}
}

// PlaceAnnotations are the place annotations of an item at file, index.
func PlaceAnnotations(file string, index int) map[string]string {
	v := PlaceValues(file, index)
	out := make(map[string]string, len(PlaceKeys))
	for i, k := range PlaceKeys {
		out[k] = v[i]
	}
	return out
}

// ReadPlace is the file and index the place annotations say, get reading
// an annotation ("" when unset); the current keys win over the legacy
// ones, and an index that is not a number is 0.
func ReadPlace(get func(key string) string) (file string, index int) {
	file = get(kioutil.PathAnnotation)
	if file == "" {
		file = get(kioutil.LegacyPathAnnotation)
	}
	i := get(kioutil.IndexAnnotation)
	if i == "" {
		i = get(kioutil.LegacyIndexAnnotation)
	}
	index, _ = strconv.Atoi(i)
	return file, index
}

// HasPath reports whether the annotations mapping ann says a path.
func HasPath(ann *yaml.Node) bool {
	return ScalarAt(ann, kioutil.PathAnnotation) != "" || ScalarAt(ann, kioutil.LegacyPathAnnotation) != ""
}

// SetPlace sets the four place annotations in the annotations mapping ann
// to file and index, in PlaceKeys' order where they are new.
func SetPlace(ann *yaml.Node, file string, index int) {
	v := PlaceValues(file, index)
	for i, k := range PlaceKeys {
		SetField(ann, k, StrNode(v[i]))
	}
}

// CopyPlace gives the annotations mapping ann the place annotations of
// old (another mapping; nil for none), dropping those old lacks: an item
// rewritten in place keeps where it was read from. The current pair is
// set before the legacy pair.
func CopyPlace(ann, old *yaml.Node) {
	for _, k := range [4]string{kioutil.PathAnnotation, kioutil.IndexAnnotation, kioutil.LegacyPathAnnotation, kioutil.LegacyIndexAnnotation} {
		RemoveField(ann, k)
		if v := ValueAt(old, k); v != nil {
			SetField(ann, k, v)
		}
	}
}

// MentionsLegacyPlace reports whether line holds a legacy place key (the
// current keys are their tails, so a line holding either is found).
func MentionsLegacyPlace(line []byte) bool {
	for _, k := range legacyPlaceKeys {
		if bytes.Contains(line, []byte(k)) {
			return true
		}
	}
	return false
}
