package modes

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/nova"
)

// novaHeader opens the file nfd-fn writes.
var novaHeader = []string{
	"Nova provider config written by nfd-fn from the package's NodeFeatureRules.",
	"Do not edit: the next render rewrites it (see novaProviderConfig in nfd-fn's README).",
}

// BuildNova is the Nova provider config of the rendered nodes, from what
// NFD owns on each (the labels and extended resources its tracking
// annotations list) through s's mapping (nova.Build), with the nodes'
// names, for fitting it to the package's own provider configs
// (nova.Reconcile), and the problems building it. fn writes it into its
// ConfigMap.
func BuildNova(nodes []master.NodeResult, s config.Settings) (*nova.Document, []string, diag.List) {
	owned, names := make([]nova.Node, len(nodes)), make([]string, len(nodes))
	for i := range nodes {
		labels, resources := s.Options.Owned(&nodes[i].State)
		owned[i] = nova.Node{Name: nodes[i].Name, Labels: labels, Resources: resources}
		names[i] = nodes[i].Name
	}
	doc, problems := nova.Build(owned, s.Nova.Mapping)
	return doc, names, problems
}

// EncodeNova is the provider config file of doc, under nfd-fn's header,
// and the errors found: one that cannot be encoded (the text is then nil),
// or a file that does not pass Nova's schema (a bug in nfd-fn).
func EncodeNova(doc *nova.Document) ([]byte, diag.List) {
	text, err := nova.Marshal(doc, novaHeader)
	if err != nil {
		return nil, diag.List{{Severity: diag.Error, Message: fmt.Sprintf("encoding the Nova provider config: %v", err)}}
	}
	var problems diag.List
	_, invalid := nova.Parse(text)
	for _, d := range invalid {
		problems = append(problems, diag.Diagnostic{Severity: diag.Error, Message: "nfd-fn wrote a provider config that does not validate (a bug in nfd-fn): " + d.String()})
	}
	return text, problems
}
