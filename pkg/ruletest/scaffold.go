package ruletest

import (
	"bytes"
	"maps"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// The shape Scaffold writes: the fields a RuleTest has, in its order.
type (
	scaffoldDoc struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			NFDVersion string         `yaml:"nfdVersion,omitempty"`
			Config     string         `yaml:"config,omitempty"`
			Inputs     []string       `yaml:"inputs"`
			Expect     scaffoldExpect `yaml:"expect"`
		} `yaml:"spec"`
	}
	scaffoldExpect struct {
		Nodes    []scaffoldNode    `yaml:"nodes,omitempty"`
		Groups   []scaffoldGroup   `yaml:"groups,omitempty"`
		Findings []scaffoldFinding `yaml:"findings,omitempty"`
	}
	scaffoldNode struct {
		Node              string            `yaml:"node"`
		Labels            map[string]string `yaml:"labels,omitempty"`
		Annotations       map[string]string `yaml:"annotations,omitempty"`
		Taints            []scaffoldTaint   `yaml:"taints,omitempty"`
		ExtendedResources map[string]string `yaml:"extendedResources,omitempty"`
	}
	scaffoldTaint struct {
		Key    string `yaml:"key"`
		Value  string `yaml:"value,omitempty"`
		Effect string `yaml:"effect"`
	}
	scaffoldGroup struct {
		Group   string   `yaml:"group"`
		Members []string `yaml:"members,flow"`
	}
	scaffoldFinding struct {
		Check  string `yaml:"check"`
		Object string `yaml:"object,omitempty"`
	}
)

// Scaffold is a starting RuleTest with s's name, release, config and
// inputs, whose expectations are what got holds: every node's labels, annotations,
// taints and extended resources, every group's members, and every check
// that fired at error or warning (once per object), so the test passes
// as written and fails when the answer changes.
func Scaffold(s *Suite, got *Got) ([]byte, error) {
	var d scaffoldDoc
	d.APIVersion, d.Kind, d.Metadata.Name = APIVersion, Kind, s.Name
	d.Spec.NFDVersion, d.Spec.Config, d.Spec.Inputs = s.NFDVersion, s.Config, s.Inputs
	for _, n := range got.Nodes {
		sn := scaffoldNode{Node: n.Name, Labels: n.Labels, Annotations: n.Annotations, ExtendedResources: n.ExtendedResources}
		for _, t := range n.Taints {
			sn.Taints = append(sn.Taints, scaffoldTaint(t))
		}
		d.Spec.Expect.Nodes = append(d.Spec.Expect.Nodes, sn)
	}
	for _, g := range slices.Sorted(maps.Keys(got.Groups)) {
		d.Spec.Expect.Groups = append(d.Spec.Expect.Groups, scaffoldGroup{Group: g, Members: sortedCopy(got.Groups[g])})
	}
	seen := map[scaffoldFinding]bool{}
	for _, f := range got.Findings {
		if f.Severity == diag.Info || f.ID() == "" {
			continue
		}
		sf := scaffoldFinding{Check: f.ID(), Object: objectText(f.Object)}
		if !seen[sf] {
			seen[sf] = true
			d.Spec.Expect.Findings = append(d.Spec.Expect.Findings, sf)
		}
	}
	var b bytes.Buffer
	b.WriteString("# yaml-language-server: $schema=https://raw.githubusercontent.com/nfd-fn/nfd-fn/main/docs/schema/ruletest.json\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&d); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}
