package nova

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

var (
	versionPattern = regexp.MustCompile(`^([0-9]+)\.([0-9]|[1-9][0-9]+)$`)
	digitsOnly     = regexp.MustCompile(`^[-+]?[0-9]+$`)
	uuidPattern    = regexp.MustCompile(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`)
)

// LooksLikeProviderConfig reports whether data is a YAML mapping with the
// top-level keys of a provider config: meta holding schema_version, or
// providers. It is how provider configs are told apart from other YAML.
func LooksLikeProviderConfig(data []byte) bool {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return false
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return false
	}
	return yamlstrict.Value(yamlstrict.Value(root, "meta"), "schema_version") != nil || yamlstrict.Value(root, "providers") != nil
}

// Parse reads a provider config file and checks it as nova-compute would
// before it starts: the schema (SCHEMA_V1 of nova/compute/provider_config.py)
// plus Nova's and placement's further rules. It returns what it could read
// and every issue found; errors are what would stop nova-compute or be
// rejected by placement, warnings what they would log and ignore.
//
// Unknown fields are tolerated where the schema leaves room for later minor
// versions (top level, meta, provider entries, inventories and traits) and
// rejected where the schema is closed (identification and inventory
// records). A major version other than 1 is rejected and nothing further
// is checked.
func Parse(data []byte) (*Document, diag.List) {
	p := &parser{doc: &Document{}}
	root, err := singleDocument(data)
	if err != nil {
		p.fail("", "%v", err)
		return p.doc, p.issues
	}
	if root.Kind != yaml.MappingNode {
		p.fail("", "a provider config is a YAML mapping with meta and providers, got %s", yamlstrict.Describe(root))
		return p.doc, p.issues
	}
	if yamlstrict.Value(root, "__source_file") != nil {
		p.fail("__source_file", "__source_file is reserved for nova-compute's own use and must not be set")
	}
	if !p.meta(yamlstrict.Value(root, "meta")) {
		return p.doc, p.issues
	}
	p.providers(yamlstrict.Value(root, "providers"))
	return p.doc, p.issues
}

// singleDocument parses data, which must hold exactly one YAML document.
func singleDocument(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("the file is empty; it needs at least meta.schema_version")
		}
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("the file holds more than one YAML document; nova-compute reads exactly one")
	}
	if err := yamlstrict.CheckTree(&doc, MaxDepth, MaxAliasNodes); err != nil {
		return nil, fmt.Errorf("the file is not read: %w", err)
	}
	return resolve(doc.Content[0]), nil
}

// Limits on a hand-written provider config, which Parse walks with its
// aliases followed: a file of a few kilobytes whose aliases refer to
// aliases would otherwise expand to gigabytes of providers and issues.
const (
	// MaxAliasNodes caps the nodes reached through aliases, as
	// internal/krm caps a ResourceList item's.
	MaxAliasNodes = 100_000
	// MaxDepth caps the nesting of the file (a provider config is about
	// six levels deep).
	MaxDepth = 100
)

type parser struct {
	doc    *Document
	issues diag.List
}

func (p *parser) fail(path, format string, args ...any) {
	p.issues = append(p.issues, diag.Diagnostic{Severity: diag.Error, Field: path, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) warn(path, format string, args ...any) {
	p.issues = append(p.issues, diag.Diagnostic{Severity: diag.Warning, Field: path, Message: fmt.Sprintf(format, args...)})
}

// meta checks meta.schema_version and reports whether the rest of the file
// can be read (the major version is known).
func (p *parser) meta(n *yaml.Node) bool {
	switch {
	case n == nil:
		p.fail("meta", "meta is required: add meta.schema_version: %q", SchemaVersion)
		return false
	case n.Kind != yaml.MappingNode:
		p.fail("meta", "meta must be a mapping holding schema_version, got %s", yamlstrict.Describe(n))
		return false
	}
	v := yamlstrict.Value(n, "schema_version")
	const path = "meta.schema_version"
	switch {
	case v == nil:
		p.fail(path, "schema_version is required, e.g. %q", SchemaVersion)
		return false
	case v.Kind == yaml.ScalarNode && v.Tag != "!!str" && !isNull(v):
		p.fail(path, "schema_version must be a string: quote it (%q); YAML reads the bare %s as a %s", v.Value, v.Value, strings.TrimPrefix(v.Tag, "!!"))
		if !versionPattern.MatchString(v.Value) {
			return false
		}
		// Go on as if it were quoted, to report what else is wrong.
	case !isString(v):
		p.fail(path, "schema_version must be a string such as %q, got %s", SchemaVersion, yamlstrict.Describe(v))
		return false
	}
	m := versionPattern.FindStringSubmatch(v.Value)
	if m == nil {
		p.fail(path, "schema_version %q is not $Major.$minor (e.g. %q)", v.Value, SchemaVersion)
		return false
	}
	p.doc.SchemaVersion = v.Value
	if m[1] != "1" {
		p.fail(path, "unsupported schema major version %s: nova-compute knows only 1.x, and a new major may change anything", m[1])
		return false
	}
	if m[2] != "0" {
		p.warn(path, "schema version %s is newer than 1.0: nova-compute and nfd-fn read it as 1.0 and ignore fields they do not know", v.Value)
	}
	return true
}

func (p *parser) providers(n *yaml.Node) {
	if n == nil || isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		p.fail("providers", "providers must be a list, got %s", yamlstrict.Describe(n))
		return
	}
	p.doc.Providers = make([]Provider, len(n.Content))
	for i, c := range n.Content {
		p.provider(resolve(c), providerPath(i), &p.doc.Providers[i])
	}
}

func (p *parser) provider(n *yaml.Node, path string, out *Provider) {
	if n.Kind != yaml.MappingNode {
		p.fail(path, "a provider must be a mapping with identification, got %s", yamlstrict.Describe(n))
		return
	}
	id := yamlstrict.Value(n, "identification")
	if id == nil {
		p.fail(path+".identification", "identification is required: uuid or name of the resource provider")
	} else {
		out.Identification = p.identification(id, path+".identification")
	}
	if inv := yamlstrict.Value(n, "inventories"); inv != nil {
		out.Inventories = p.inventories(inv, path+".inventories")
	}
	if tr := yamlstrict.Value(n, "traits"); tr != nil {
		out.Traits = p.traits(tr, path+".traits")
	}
	if declaresNothing(n) {
		msg := "the provider has no additional inventories or traits; nova-compute ignores it"
		if unknown := unknownKeys(n, "identification", "inventories", "traits"); len(unknown) > 0 {
			msg += fmt.Sprintf(" (fields it does not know: %s)", strings.Join(unknown, ", "))
		}
		p.warn(path, "%s", msg)
	}
}

// declaresNothing reports whether a provider entry lists no inventory and
// no trait at all, valid or not.
func declaresNothing(n *yaml.Node) bool {
	for _, section := range []string{"inventories", "traits"} {
		add := yamlstrict.Value(yamlstrict.Value(n, section), "additional")
		if add != nil && (add.Kind == yaml.MappingNode || add.Kind == yaml.SequenceNode) && len(add.Content) > 0 {
			return false
		}
	}
	return true
}

func (p *parser) identification(n *yaml.Node, path string) Identification {
	var id Identification
	if n.Kind != yaml.MappingNode {
		p.fail(path, "identification must be a mapping with uuid or name, got %s", yamlstrict.Describe(n))
		return id
	}
	keys := unknownKeys(n)
	if len(keys) != 1 {
		if len(keys) == 0 {
			p.fail(path, "identification needs exactly one of uuid and name, got none")
		} else {
			p.fail(path, "identification needs exactly one of uuid and name, got %s", strings.Join(keys, " and "))
		}
		return id
	}
	v := yamlstrict.Value(n, keys[0])
	sub := path + "." + keys[0]
	switch keys[0] {
	case "uuid":
		if !isString(v) || (v.Value != ComputeNode && !uuidPattern.MatchString(v.Value)) {
			p.fail(sub, "uuid must be a UUID or %s, got %s", ComputeNode, yamlstrict.Describe(v))
			return id
		}
		id.UUID = v.Value
	case "name":
		switch {
		case !isString(v) || v.Value == "":
			p.fail(sub, "name must be a non-empty string, got %s", yamlstrict.Describe(v))
		case v.Value == ComputeNode:
			p.fail(sub, "%s is only allowed as uuid, not as name", ComputeNode)
		case len(v.Value) > MaxProviderNameLength:
			p.fail(sub, "name is %d characters; Nova allows at most %d", len(v.Value), MaxProviderNameLength)
		default:
			id.Name = v.Value
		}
	default:
		p.fail(sub, "unknown identification %q: schema 1.0 identifies a provider by uuid or name", keys[0])
	}
	return id
}

func (p *parser) inventories(n *yaml.Node, path string) []Inventory {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.fail(path, "inventories must be a mapping with additional, got %s", yamlstrict.Describe(n))
		return nil
	}
	add := yamlstrict.Value(n, "additional")
	path += ".additional"
	switch {
	case add == nil || isNull(add):
		return nil
	case add.Kind == yaml.MappingNode:
		p.fail(path, "additional must be a list of mappings (- CUSTOM_X: {total: 1}): the spec's sketch shows a mapping, but nova-compute's schema rejects it")
		return nil
	case add.Kind != yaml.SequenceNode:
		p.fail(path, "additional must be a list of mappings of resource class to inventory, got %s", yamlstrict.Describe(add))
		return nil
	}
	var out []Inventory
	seen := map[string]string{}
	for i, entry := range add.Content {
		entry = resolve(entry)
		epath := fmt.Sprintf("%s[%d]", path, i)
		if entry.Kind != yaml.MappingNode {
			p.fail(epath, "each entry must map a resource class to its inventory, got %s", yamlstrict.Describe(entry))
			continue
		}
		for j := 0; j+1 < len(entry.Content); j += 2 {
			class := entry.Content[j].Value
			cpath := epath + "." + class
			if prev, dup := seen[class]; dup {
				p.fail(cpath, "resource class %s is already given at %s", class, prev)
				continue
			}
			seen[class] = cpath
			if err := CheckCustomName(class); err != nil {
				p.fail(cpath, "resource class %q: %v", class, err)
				continue
			}
			if inv, ok := p.inventory(class, resolve(entry.Content[j+1]), cpath); ok {
				out = append(out, inv)
			}
		}
	}
	return out
}

// inventory reads one inventory record; it is closed in schema 1.0.
func (p *parser) inventory(class string, n *yaml.Node, path string) (Inventory, bool) {
	inv := Inventory{ResourceClass: class}
	if n.Kind != yaml.MappingNode {
		p.fail(path, "the inventory must be a mapping with at least total, got %s", yamlstrict.Describe(n))
		return inv, false
	}
	readOK, known, hasTotal := true, true, false
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i].Value, resolve(n.Content[i+1])
		fpath := path + "." + key
		var good bool
		switch key {
		case "total":
			inv.Total, good = p.integer(v, fpath)
			hasTotal = true
		case "reserved", "min_unit", "max_unit", "step_size":
			var val int64
			val, good = p.integer(v, fpath)
			*inv.optional(key) = &val
		case "allocation_ratio":
			var f float64
			f, good = p.number(v, fpath)
			inv.AllocationRatio = &f
		default:
			p.fail(fpath, "unknown inventory field %q: schema 1.0 allows total, reserved, min_unit, max_unit, step_size and allocation_ratio", key)
			good, known = true, false
		}
		readOK = readOK && good
	}
	if !hasTotal {
		p.fail(path, "total is required")
		return inv, false
	}
	if !readOK {
		return inv, false
	}
	issues := checkInventoryValues(&inv)
	for _, iss := range issues {
		p.fail(path+"."+iss.field, "%s", iss.msg)
	}
	return inv, known && len(issues) == 0
}

// optional returns the optional integer field called name.
func (inv *Inventory) optional(name string) **int64 {
	switch name {
	case "reserved":
		return &inv.Reserved
	case "min_unit":
		return &inv.MinUnit
	case "max_unit":
		return &inv.MaxUnit
	}
	return &inv.StepSize
}

func (p *parser) traits(n *yaml.Node, path string) []string {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.fail(path, "traits must be a mapping with additional, got %s", yamlstrict.Describe(n))
		return nil
	}
	add := yamlstrict.Value(n, "additional")
	path += ".additional"
	if add == nil || isNull(add) {
		return nil
	}
	if add.Kind != yaml.SequenceNode {
		p.fail(path, "additional must be a list of trait names, got %s", yamlstrict.Describe(add))
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i, t := range add.Content {
		t = resolve(t)
		tpath := fmt.Sprintf("%s[%d]", path, i)
		if !isString(t) {
			p.fail(tpath, "a trait is a string, got %s", yamlstrict.Describe(t))
			continue
		}
		if err := CheckCustomName(t.Value); err != nil {
			p.fail(tpath, "trait %q: %v", t.Value, err)
			continue
		}
		if seen[t.Value] {
			p.warn(tpath, "trait %s is listed twice", t.Value)
			continue
		}
		seen[t.Value] = true
		out = append(out, t.Value)
	}
	return out
}

// integer reads an integer field; like jsonschema, a float with no
// fractional part counts.
func (p *parser) integer(n *yaml.Node, path string) (int64, bool) {
	if n.Kind == yaml.ScalarNode {
		switch n.Tag {
		case "!!int":
			if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
				return v, true
			}
			p.fail(path, "%s is out of range; placement allows at most %d", n.Value, MaxInt)
			return 0, false
		case "!!float":
			if digitsOnly.MatchString(n.Value) {
				p.fail(path, "%s is out of range; placement allows at most %d", n.Value, MaxInt)
				return 0, false
			}
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f == float64(int64(f)) {
				return int64(f), true
			}
		}
	}
	p.fail(path, "must be an integer, got %s", yamlstrict.Describe(n))
	return 0, false
}

func (p *parser) number(n *yaml.Node, path string) (float64, bool) {
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float") {
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil {
			return f, true
		}
		if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			return float64(v), true
		}
	}
	p.fail(path, "must be a number, got %s", yamlstrict.Describe(n))
	return 0, false
}

type fieldIssue struct{ field, msg string }

// checkInventoryValues applies placement's ranges to an inventory.
func checkInventoryValues(inv *Inventory) []fieldIssue {
	var out []fieldIssue
	check := func(name string, v *int64, minimum int64) {
		switch {
		case v == nil:
		case *v < 0:
			out = append(out, fieldIssue{name, fmt.Sprintf("%s is %d; it must not be negative", name, *v)})
		case *v < minimum:
			out = append(out, fieldIssue{name, fmt.Sprintf("%s is %d; placement requires at least %d", name, *v, minimum)})
		case *v > MaxInt:
			out = append(out, fieldIssue{name, fmt.Sprintf("%s is %d; placement allows at most %d", name, *v, MaxInt)})
		}
	}
	check("total", &inv.Total, 1)
	check("reserved", inv.Reserved, 0)
	check("min_unit", inv.MinUnit, 1)
	check("max_unit", inv.MaxUnit, 1)
	check("step_size", inv.StepSize, 1)
	if r := inv.AllocationRatio; r != nil && !(*r >= 0 && *r <= MaxAllocationRatio) {
		out = append(out, fieldIssue{"allocation_ratio", fmt.Sprintf("allocation_ratio is %s; it must be a non-negative number no larger than %g", formatRatio(*r), MaxAllocationRatio)})
	}
	if inv.Reserved != nil && *inv.Reserved > inv.Total && *inv.Reserved <= MaxInt && inv.Total >= 1 {
		out = append(out, fieldIssue{"reserved", fmt.Sprintf("reserved %d is above total %d; placement rejects that", *inv.Reserved, inv.Total)})
	}
	return out
}

func formatRatio(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// unknownKeys lists the keys of mapping m that are not in known, in order.
func unknownKeys(m *yaml.Node, known ...string) []string {
	var out []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		isKnown := false
		for _, kn := range known {
			isKnown = isKnown || k == kn
		}
		if !isKnown {
			out = append(out, k)
		}
	}
	return out
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func isString(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str" }
