package nova

import (
	"fmt"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// FileName is the name of the file nfd-fn writes, in nova-compute's
// provider_config_location (/etc/nova/provider_config/).
const FileName = "nfd-fn-providers.yaml"

// File is a provider config file that nova-compute loads beside the one
// nfd-fn writes: the operator's own.
type File struct {
	// Name says where the file is, in messages about another file, e.g.
	// nova/by-hand.yaml data["compute.yaml"].
	Name string
	Doc  *Document
}

// Finding is a diagnostic about one file that Reconcile looks at: File
// indexes the hand-written files, and is their count for the file nfd-fn
// writes. Field is the path inside that file, e.g. providers[2].
type Finding struct {
	File int
	diag.Diagnostic
}

// Reconcile fits built, the document Build made for the rendered nodes
// (every node rendered, named in rendered, whether it has a provider or
// not), to the hand-written files that nova-compute loads beside it. It
// returns the document nfd-fn writes, as FileName at the location at, and
// what the files get wrong together:
//
//   - a rendered node that a hand-written file configures by name is left
//     out of the document (nova-compute refuses a provider named twice,
//     and the operator's file wins), with an info finding where the file
//     names it and a warning for each disagreement with the rules;
//   - a hand-written $COMPUTE_NODE entry that the document's named
//     providers make nova-compute ignore, for something those nodes get
//     nowhere else, is a warning;
//   - an identification used more than once across all the files is an
//     error at every use after the first.
//
// Findings come in that order: per file and entry within each kind.
func Reconcile(built *Document, rendered []string, hand []File, at string) (*Document, []Finding) {
	doc, findings := leaveOutClaimed(built, rendered, hand)
	findings = append(findings, checkShadowing(hand, doc)...)
	findings = append(findings, checkDuplicates(hand, File{Name: at, Doc: doc})...)
	return doc, findings
}

// finding is a Finding about providers[i] of file f.
func finding(f, i int, sev diag.Severity, format string, args ...any) Finding {
	return Finding{File: f, Diagnostic: diag.Diagnostic{Severity: sev, Field: providerPath(i), Message: fmt.Sprintf(format, args...)}}
}

// leaveOutClaimed returns built without the rendered nodes that a
// hand-written file names, and reports where such a file disagrees with
// what the rules produce for the node. The first entry naming a node
// claims it; entries that declare nothing do not count, as nova-compute
// drops them.
func leaveOutClaimed(built *Document, rendered []string, hand []File) (*Document, []Finding) {
	isRendered := map[string]bool{}
	for _, name := range rendered {
		isRendered[name] = true
	}
	generated := map[string]*Provider{}
	for i := range built.Providers {
		generated[built.Providers[i].Identification.Name] = &built.Providers[i]
	}
	vocab := VocabularyOf(built)
	claimed := map[string]bool{}
	var findings []Finding
	for fi, f := range hand {
		for i := range f.Doc.Providers {
			p := &f.Doc.Providers[i]
			name := p.Identification.Name
			if name == "" || p.IsEmpty() || !isRendered[name] || claimed[name] {
				continue
			}
			claimed[name] = true
			want := generated[name]
			if want == nil {
				want = &Provider{}
			}
			findings = append(findings, finding(fi, i, diag.Info, "node %s is configured here by hand, so nfd-fn leaves it out of %s", name, FileName))
			for _, d := range Diff(p, want, vocab) {
				findings = append(findings, finding(fi, i, diag.Warning, "node %s: conflicts with the rules: %s", name, d))
			}
		}
	}
	doc := &Document{SchemaVersion: built.SchemaVersion}
	for _, p := range built.Providers {
		if !claimed[p.Identification.Name] {
			doc.Providers = append(doc.Providers, p)
		}
	}
	return doc, findings
}

// checkShadowing warns when the providers doc names explicitly make
// nova-compute ignore a hand-written $COMPUTE_NODE entry that declares
// something they do not get otherwise.
func checkShadowing(hand []File, doc *Document) []Finding {
	var findings []Finding
	for fi, f := range hand {
		for i := range f.Doc.Providers {
			p := &f.Doc.Providers[i]
			if p.Identification.UUID != ComputeNode || p.IsEmpty() {
				continue
			}
			nodes, lost := Shadowed(p, doc.Providers)
			if len(nodes) == 0 {
				continue
			}
			those, it := "those nodes", "it"
			if len(nodes) == 1 {
				those = "that node"
			}
			if len(lost) > 1 {
				it = "them"
			}
			findings = append(findings, finding(fi, i, diag.Warning,
				"nova-compute ignores this %s entry for providers named explicitly, and nfd-fn's %s names %s, so %s will not get %s from this entry; let the rules produce %s, or configure %s here by name",
				ComputeNode, FileName, diag.DescribeNodes(nodes), those, strings.Join(lost, ", "), it, those))
		}
	}
	return findings
}

// checkDuplicates reports identifications used more than once across the
// hand-written files and the generated one, which comes last.
func checkDuplicates(hand []File, generated File) []Finding {
	files := append(append([]File(nil), hand...), generated)
	docs := make([]*Document, len(files))
	for i, f := range files {
		docs[i] = f.Doc
	}
	var findings []Finding
	for _, d := range Duplicates(docs) {
		first := fmt.Sprintf("%s %s", files[d.First.Doc].Name, providerPath(d.First.Provider))
		for _, at := range d.Again {
			id := docs[at.Doc].Providers[at.Provider].Identification
			findings = append(findings, finding(at.Doc, at.Provider, diag.Error,
				"%s is already identified at %s; nova-compute refuses to start when a provider is identified twice across its provider config files", id, first))
		}
	}
	return findings
}
