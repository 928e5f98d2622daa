package diag

// Checks is the catalogue of check names, with what each one finds. The
// SARIF rule metadata comes from here.
var Checks = map[string]string{
	"schema":                   "The object does not match the NFD API schema",
	"unknown-field":            "Unknown or misspelt field",
	"invalid-op":               "Unknown match operator",
	"invalid-value":            "Match expression values that nfd-master cannot evaluate",
	"template":                 "Template that does not parse or cannot run",
	"feature-name":             "Malformed feature name",
	"rule-name":                "Missing rule name",
	"rule":                     "Rule problem",
	"unknown-feature":          "Feature that nfd-worker never produces",
	"unknown-element":          "Element that the feature never has",
	"output-label":             "Label nfd-master would reject or drop",
	"output-annotation":        "Annotation nfd-master would reject",
	"output-extended-resource": "Extended resource nfd-master would reject",
	"taint":                    "Taint nfd-master would reject",
	"reference":                "@ reference that cannot resolve",
	"backref":                  "rule.matched reference no earlier rule produces",
	"duplicate-object":         "Two objects with the same name",
	"duplicate-rule-name":      "Two rules with the same name",
	"matches-no-node":          "Rule that matches no node of the fleet",
	"label-conflict":           "Label set to different values by two rules",
	"taints-every-node":        "Rule that taints every node",
	"other-kind":               "Document that is not an NFD kind",
	"unknown-kind":             "Unknown NFD kind",
	"api-version":              "Unknown NFD API version",
	"yaml":                     "YAML that does not parse",
}
