package diag

import (
	"encoding/json"
	"io"
	"sort"
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
	Name             string       `json:"name,omitempty"`
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

// WriteSARIF writes the findings as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, l List, version string) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "nfd-fn", Version: version,
		InformationURI: "https://github.com/nfd-fn/nfd-fn"}}, Results: []sarifResult{}}
	for _, c := range l.checks() {
		desc := Checks[c]
		if desc == "" {
			desc = c
		}
		id := c
		if check, ok := Lookup(c); ok {
			id = check.ID
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, Name: c, ShortDescription: sarifMessage{desc}})
	}
	for i := range l {
		run.Results = append(run.Results, sarifResultOf(&l[i]))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

func sarifResultOf(d *Diagnostic) sarifResult {
	id := d.ID()
	if id == "" {
		id = d.Check
	}
	r := sarifResult{RuleID: id, Level: sarifLevel(d.Severity), Message: sarifMessage{Escape(d.Describe())}}
	if d.Pos.File != "" {
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: Escape(d.Pos.File)}}}
		if d.Pos.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Pos.Line, StartColumn: d.Pos.Column}
		}
		r.Locations = []sarifLocation{loc}
	}
	return r
}

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// checks lists the distinct check names, sorted.
func (l List) checks() []string {
	seen := map[string]bool{}
	var out []string
	for i := range l {
		if c := l[i].Check; c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}
