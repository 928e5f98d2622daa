package yamlstrict

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
