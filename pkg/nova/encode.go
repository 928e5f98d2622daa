package nova

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Marshal writes doc as a provider config file. Each header line becomes a
// comment at the top. The layout is the one nova-compute's schema accepts:
// schema_version quoted, inventories.additional a list with one resource
// class per entry, empty sections left out. The output depends only on
// doc and header.
func Marshal(doc *Document, header []string) ([]byte, error) {
	root := mapping()
	meta := mapping()
	add(meta, "schema_version", str(doc.SchemaVersion))
	add(root, "meta", meta)
	providers := &yaml.Node{Kind: yaml.SequenceNode}
	if len(doc.Providers) == 0 {
		providers.Style = yaml.FlowStyle
	}
	for i := range doc.Providers {
		providers.Content = append(providers.Content, providerNode(&doc.Providers[i]))
	}
	add(root, "providers", providers)
	var buf bytes.Buffer
	for _, line := range header {
		buf.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func providerNode(p *Provider) *yaml.Node {
	n := mapping()
	id := mapping()
	switch {
	case p.Identification.UUID != "":
		add(id, "uuid", str(p.Identification.UUID))
	case p.Identification.Name != "":
		add(id, "name", str(p.Identification.Name))
	default:
		id.Style = yaml.FlowStyle // an entry whose identification was unreadable
	}
	add(n, "identification", id)
	if len(p.Inventories) > 0 {
		list := &yaml.Node{Kind: yaml.SequenceNode}
		for i := range p.Inventories {
			entry := mapping()
			add(entry, p.Inventories[i].ResourceClass, inventoryNode(&p.Inventories[i]))
			list.Content = append(list.Content, entry)
		}
		inv := mapping()
		add(inv, "additional", list)
		add(n, "inventories", inv)
	}
	if len(p.Traits) > 0 {
		list := &yaml.Node{Kind: yaml.SequenceNode}
		for _, t := range p.Traits {
			list.Content = append(list.Content, str(t))
		}
		tr := mapping()
		add(tr, "additional", list)
		add(n, "traits", tr)
	}
	return n
}

func inventoryNode(inv *Inventory) *yaml.Node {
	n := mapping()
	for _, f := range inv.fields() {
		tag := "!!int"
		if f.name == "allocation_ratio" {
			tag = "!!float"
		}
		add(n, f.name, &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: f.value})
	}
	return n
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

// str is a string scalar; strings YAML would read as something else (a
// version like 1.0, a number, true) are quoted.
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if needsQuotes(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func needsQuotes(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", "":
		return true
	}
	return false
}
