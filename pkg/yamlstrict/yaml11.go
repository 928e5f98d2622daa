package yamlstrict

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// IsYAML11Bool reports whether the plain scalar text is a boolean to a
// YAML 1.1 reader (sigs.k8s.io/yaml, which kubectl and Helm use) but a
// string to yaml.v3: every spelling of y, yes, n, no, on and off that the
// YAML 1.1 boolean type lists (lower case, capitalised, upper case). true
// and false in their three spellings are booleans to both. It runs on
// every plain string of a fleet, so it tests the length before the text.
func IsYAML11Bool(text string) bool {
	if len(text) == 0 || len(text) > 3 {
		return false
	}
	switch text {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// yaml11True are the spellings of the YAML 1.1 booleans (IsYAML11Bool)
// that read as true; the others read as false.
func yaml11True(text string) bool {
	switch strings.ToLower(text) {
	case "y", "yes", "on":
		return true
	}
	return false
}

// storedKey is the key k of a mapping as the API server stores it: an
// unquoted YAML 1.1 boolean (on, yes, n...) is sent by kubectl and Helm
// (sigs.k8s.io/yaml) as the boolean, which becomes the key "true" or
// "false"; with RefusingYAML11Booleans that key is decoded, and reported
// at path (Stored: the object is not refused for it). Any other key is
// its text, as yaml.v3 reads it.
func (s *state) storedKey(k *yaml.Node, path string) string {
	if !s.d.yaml11 || k.Kind != yaml.ScalarNode || k.Tag != "!!str" || k.Style&^yaml.FlowStyle != 0 || !IsYAML11Bool(k.Value) {
		return k.Value
	}
	stored := "false"
	if yaml11True(k.Value) {
		stored = "true"
	}
	s.fail(k, path, "the unquoted key %s, which kubectl and Helm (YAML 1.1) send as a boolean, is stored by the API server as the key %q, which nfd-fn uses too: quote it (\"%s\") to keep %s",
		k.Value, stored, k.Value, k.Value)
	s.errs[len(s.errs)-1].Stored = true
	return stored
}
