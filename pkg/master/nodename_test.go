package master

import (
	"strings"
	"testing"
)

// TestNodeFeatureWithAnInvalidNodeNameLabelIsAnErrorAndNotAttached covers
// issue 17 point 4: the node-name label becomes a Node name, a file path
// (nodes/<name>.yaml) and a Nova provider name, so a value the API server
// would refuse as a Node name is an error naming the NodeFeature, and the
// NodeFeature renders no node.
func TestNodeFeatureWithAnInvalidNodeNameLabelIsAnErrorAndNotAttached(t *testing.T) {
	tests := []struct{ name, label string }{
		{"path-traversal", `"../../../../tmp/x"`},
		{"absolute-path", `/etc/passwd`},
		{"newline", `"a\nb"`},
		{"nul", `"a\0b"`},
		{"bidi-override", `"a\u202eb"`},
		{"300-characters", strings.Repeat("a", 300)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := readSet(t, nodeFeature(DefaultNamespace, "nf", tc.label, "{labels: {a: b}}"))
			f := renderSet(set, DefaultOptions())
			if len(f.Nodes) != 0 {
				t.Errorf("rendered nodes %q from an invalid node-name label", f.Nodes[0].Name)
			}
			var found bool
			for _, d := range f.Diagnostics {
				found = found || (d.Check == "node-name" && d.Severity == "error" && d.Object.Name == "nf" &&
					d.Field == `metadata.labels["nfd.node.kubernetes.io/node-name"]` && strings.Contains(d.Message, "not a valid node name"))
			}
			if !found {
				t.Errorf("no node-name error naming the NodeFeature:\n%s", f.Diagnostics.Error())
			}
		})
	}
}

func TestNodeFeatureWithAValidNodeNameLabelIsAttached(t *testing.T) {
	set := readSet(t, nodeFeature(DefaultNamespace, "nf", "ip-10-0-0-1.ec2.internal", "{labels: {a: b}}"))
	f := renderSet(set, DefaultOptions())
	if len(f.Nodes) != 1 || f.Nodes[0].Name != "ip-10-0-0-1.ec2.internal" || len(f.Diagnostics) != 0 {
		t.Errorf("nodes %v, diagnostics %v; want the one node and no diagnostic", f.Nodes, f.Diagnostics)
	}
}

// TestSafeButInvalidNodeNameIsAnErrorAndStillRendered covers the other
// side: a name the API server refuses for a Node but that is safe as a
// file name and text (upper case) is reported, and rendered as
// nfd-master's code renders it.
func TestSafeButInvalidNodeNameIsAnErrorAndStillRendered(t *testing.T) {
	set := readSet(t, nodeFeature(DefaultNamespace, "nf", "Worker-1", "{labels: {a: b}}"))
	f := renderSet(set, DefaultOptions())
	if len(f.Nodes) != 1 || f.Nodes[0].Name != "Worker-1" {
		t.Errorf("nodes = %v, want Worker-1 rendered", nodeNames(f))
	}
	if len(f.Diagnostics) != 1 || f.Diagnostics[0].Check != "node-name" || f.Diagnostics[0].Severity != "error" ||
		!strings.Contains(f.Diagnostics[0].Message, "no Node in a cluster can have it") {
		t.Errorf("diagnostics = %v", f.Diagnostics)
	}
}
