package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"sort"
	"strings"
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
	ID                   string              `json:"id"`
	Name                 string              `json:"name,omitempty"`
	ShortDescription     sarifMessage        `json:"shortDescription"`
	FullDescription      *sarifMessage       `json:"fullDescription,omitempty"`
	HelpURI              string              `json:"helpUri,omitempty"`
	DefaultConfiguration *sarifConfiguration `json:"defaultConfiguration,omitempty"`
}

// sarifConfiguration is a rule's reportingConfiguration: the level it
// reports at unless a result says otherwise.
type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
	// PartialFingerprints identify the finding across runs whatever
	// lines move around it (code scanning matches alerts by them).
	PartialFingerprints map[string]string `json:"partialFingerprints"`
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
		InformationURI: "https://github.com/nfd-fn/nfd-fn", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	for _, c := range l.checks() {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(c))
	}
	for i := range l {
		run.Results = append(run.Results, sarifResultOf(&l[i]))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// ChecksPage is where docs/checks.md is published: SARIF rules link to
// their check's section on it.
const ChecksPage = "https://github.com/nfd-fn/nfd-fn/blob/main/docs/checks.md"

// sarifRuleOf describes the check called name: for a check of the
// catalogue its ID, summary, example and fix, the section of docs/checks.md
// on it and the severity it reports at first.
func sarifRuleOf(name string) sarifRule {
	check, ok := Lookup(name)
	if !ok {
		desc := Checks[name]
		if desc == "" {
			desc = name
		}
		return sarifRule{ID: name, Name: name, ShortDescription: sarifMessage{desc}}
	}
	r := sarifRule{ID: check.ID, Name: check.Name, ShortDescription: sarifMessage{check.Summary},
		FullDescription: &sarifMessage{check.Summary + ". Example: " + check.Example + ". Fix: " + check.Fix},
		HelpURI:         ChecksPage + "#" + CheckAnchor(check)}
	if sev := Severities[check.ID]; len(sev) > 0 {
		r.DefaultConfiguration = &sarifConfiguration{Level: sarifLevel(sev[0])}
	}
	return r
}

// CheckAnchor is the anchor GitHub gives the check's heading in
// docs/checks.md ("### NFD020 matches-no-node": nfd020-matches-no-node).
func CheckAnchor(c Check) string {
	var b strings.Builder
	for _, r := range strings.ToLower(c.ID + " " + c.Name) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fingerprint identifies a finding by what it is about, not where it
// sits: its check, object, field and message.
func fingerprint(d *Diagnostic) string {
	h := sha256.Sum256([]byte(strings.Join([]string{d.Check, d.Object.Kind, d.Object.Namespace, d.Object.Name, d.Field, d.Message}, "\x00")))
	return hex.EncodeToString(h[:16])
}

func sarifResultOf(d *Diagnostic) sarifResult {
	id := d.ID()
	if id == "" {
		id = d.Check
	}
	r := sarifResult{RuleID: id, Level: sarifLevel(d.Severity), Message: sarifMessage{Escape(d.Describe())},
		PartialFingerprints: map[string]string{"nfdFnFinding/v1": fingerprint(d)}}
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
