package lint

import (
	"encoding/json"
	"io"

	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// SARIF 2.1.0, the subset code-scanning UIs read.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// checkDescriptions describe each check for SARIF rule metadata.
var checkDescriptions = map[string]string{
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

// WriteSARIF writes the findings as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, findings []Finding, version string) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "nfd-fn", Version: version,
		InformationURI: "https://github.com/nfd-fn/nfd-fn"}}, Results: []sarifResult{}}
	for _, c := range checks(findings) {
		desc := checkDescriptions[c]
		if desc == "" {
			desc = c
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: c, ShortDescription: sarifMessage{desc}})
	}
	for i := range findings {
		run.Results = append(run.Results, sarifResultOf(&findings[i]))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

func sarifResultOf(f *Finding) sarifResult {
	r := sarifResult{RuleID: f.Check, Level: sarifLevel(f.Severity), Message: sarifMessage{f.describe()}}
	if f.Doc != nil && f.Doc.File != "" {
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: f.Doc.File}}}
		if f.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: f.Column}
		}
		r.Locations = []sarifLocation{loc}
	}
	return r
}

func sarifLevel(s engine.Severity) string {
	switch s {
	case engine.SeverityError:
		return "error"
	case engine.SeverityWarning:
		return "warning"
	}
	return "note"
}
