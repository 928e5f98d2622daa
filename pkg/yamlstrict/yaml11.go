package yamlstrict

// yaml11Bools are the plain scalars YAML 1.1 resolves to a boolean and
// YAML 1.2 (yaml.v3) to a string: every spelling of y, yes, n, no, on and
// off that the YAML 1.1 boolean type lists (lower case, capitalised, upper
// case). true and false in their three spellings are booleans to both.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true,
	"off": true, "Off": true, "OFF": true,
}

// IsYAML11Bool reports whether the plain scalar text is a boolean to a
// YAML 1.1 reader (sigs.k8s.io/yaml, which kubectl and Helm use) but a
// string to yaml.v3.
func IsYAML11Bool(text string) bool { return yaml11Bools[text] }
