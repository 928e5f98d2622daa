package lint

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// staticOn runs the static checks (outputs included) on one
// NodeFeatureRule whose rules are given as YAML, plus extra documents.
func staticOn(t *testing.T, rules string, extra ...string) diag.List {
	t.Helper()
	doc := "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: r}\nspec:\n  rules:\n" + rules
	set := &objects.Set{}
	if ds := testkit.ReadText(set, []byte(strings.Join(append([]string{doc}, extra...), "\n---\n")), "r.yaml", false); ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return Static(set, Options{Master: master.DefaultOptions(), Outputs: true})
}

// findingsOf lists "severity field: message" of one check's findings.
func findingsOf(ds diag.List, check string) []string {
	var out []string
	for _, d := range ds {
		if d.Check == check {
			out = append(out, string(d.Severity)+" "+d.Field+": "+d.Message)
		}
	}
	return out
}

type mistakeCase struct {
	name, rules string
	// want is a part of the one finding expected ("" for none).
	want string
}

func runMistakeCases(t *testing.T, check string, cases []mistakeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := findingsOf(staticOn(t, tc.rules), check)
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("%s findings = %q, want none", check, got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("%s findings = %q, want one with %q", check, got, tc.want)
			}
		})
	}
}

const matchKernel = "    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n"

func TestUnknownFeatureNamesTheDomainsAndTheClosestFeature(t *testing.T) {
	runMistakeCases(t, "unknown-feature", []mistakeCase{
		{"domain-no-source-publishes", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: kubernetes.label, matchExpressions: {x: {op: Exists}}}]\n",
			`warning spec.rules[0].matchFeatures[0].feature: no NFD source publishes features in domain "kubernetes"`},
		{"closest-feature-named", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: kubernetes.label, matchExpressions: {x: {op: Exists}}}]\n",
			"the closest feature is local.label"},
		{"builtin-domain-typo", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: system.devices, matchExpressions: {x: {op: Exists}}}]\n",
			"nfd-worker never produces feature"},
		{"catalogue-feature-is-fine", "  - name: a\n    labels: {a: \"1\"}\n" + matchKernel, ""},
	})
	got := findingsOf(staticOn(t, "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: kubernetes.label, matchExpressions: {x: {op: Exists}}}]\n",
		"apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: n1, labels: {nfd.node.kubernetes.io/node-name: n1}}\nspec: {features: {attributes: {kubernetes.label: {elements: {x: \"1\"}}}}}"), "unknown-feature")
	if len(got) != 0 {
		t.Errorf("a NodeFeature in the input publishes kubernetes.label, yet: %q", got)
	}
}

func TestUnknownElementProposesWhatTheFeatureCallsIt(t *testing.T) {
	runMistakeCases(t, "unknown-element", []mistakeCase{
		{"hostname-is-nodename", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: system.name, matchExpressions: {hostname: {op: In, value: [n1]}}}]\n", `did you mean "nodename"`},
		{"nonrotationaldisk-is-rotational", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: storage.block, matchExpressions: {nonrotationaldisk: {op: In, value: [\"1\"]}}}]\n", `did you mean "rotational"`},
		{"network-device-elements", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: network.device, matchExpressions: {sriov_totalvf: {op: Exists}}}]\n", `did you mean "sriov_totalvfs"`},
		{"dmiid-elements", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: system.dmiid, matchExpressions: {sys_vendor: {op: Exists}}}]\n", ""},
	})
}

func TestBuiltinModulePointsAtEnabledModule(t *testing.T) {
	runMistakeCases(t, "builtin-module", []mistakeCase{
		{"usually-built-in", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: {vfio_pci: {op: Exists}}}]\n",
			`use kernel.enabledmodule (loaded and built-in modules; built-in ones under their modules.builtin file names, "vfio-pci")`},
		{"a-loadable-module", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: {nvidia: {op: Exists}}}]\n", ""},
		{"rule-already-checks-enabledmodule", "  - name: a\n    labels: {a: \"1\"}\n    matchAny:\n    - matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: {vfio_pci: {op: Exists}}}]\n    - matchFeatures: [{feature: kernel.enabledmodule, matchExpressions: {vfio-pci: {op: Exists}}}]\n", ""},
	})
}

func TestIgnoredTypeOnOperatorsThatDoNotCompare(t *testing.T) {
	runMistakeCases(t, "ignored-type", []mistakeCase{
		{"in-with-version", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: kernel.version, matchExpressions: {full: {op: In, value: [\"6.8\"], type: version}}}]\n",
			`warning spec.rules[0].matchFeatures[0].matchExpressions.full.type: op In ignores type "version"`},
		{"ge-with-version", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: kernel.version, matchExpressions: {full: {op: Ge, value: [\"6.8.0\"], type: version}}}]\n", ""},
	})
}

func TestPCIClassValuesMustBeClassCodes(t *testing.T) {
	runMistakeCases(t, "pci-class", []mistakeCase{
		{"device-id-as-class", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {class: {op: In, value: [\"0300\", \"a7a0\"]}}}]\n",
			`["a7a0"] is not a PCI class code`},
		{"class-codes", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {class: {op: In, value: [\"0300\", \"0b40\", \"12\", \"ff00\"]}}}]\n", ""},
	})
}

func TestEmptyTermMatchesWheneverTheFeatureExists(t *testing.T) {
	runMistakeCases(t, "empty-term", []mistakeCase{
		{"no-expressions", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device}]\n", "warning spec.rules[0].matchFeatures[0]: term on pci.device has no matchExpressions"},
		{"explicit-empty-set-is-meant", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: cpu.cpuid, matchExpressions: {}}]\n", ""},
		{"match-name", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: cpu.cpuid, matchName: {op: In, value: [AVX]}}]\n", ""},
	})
}

func TestReferenceValuePinnedToAnInvalidLabelValue(t *testing.T) {
	runMistakeCases(t, "reference-value", []mistakeCase{
		{"all-pinned-values-invalid-is-error", "  - name: a\n    labels: {vendor: \"@system.dmiid.board_vendor\"}\n    matchFeatures: [{feature: system.dmiid, matchExpressions: {board_vendor: {op: In, value: [\"Dell Inc.\"]}}}]\n",
			`error spec.rules[0].labels["vendor"]: label "vendor" takes @system.dmiid.board_vendor, which the matcher pins to ["Dell Inc."]`},
		{"some-invalid-is-warning", "  - name: a\n    labels: {vendor: \"@system.dmiid.board_vendor\"}\n    matchFeatures: [{feature: system.dmiid, matchExpressions: {board_vendor: {op: In, value: [\"Dell Inc.\", \"HPE\"]}}}]\n",
			"warning"},
		{"valid-values", "  - name: a\n    labels: {vendor: \"@system.dmiid.board_vendor\"}\n    matchFeatures: [{feature: system.dmiid, matchExpressions: {board_vendor: {op: In, value: [\"HPE\"]}}}]\n", ""},
	})
}

func TestDuplicateObjectIsOneFindingNotOnePerRule(t *testing.T) {
	rule := "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata: {name: dup}\nspec:\n  rules:\n  - {name: a, labels: {a: \"1\"}, matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]}\n  - {name: b, labels: {b: \"1\"}, matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]}\n"
	set := &objects.Set{}
	ds := testkit.ReadText(set, []byte(rule), "one.yaml", false)
	ds = append(ds, testkit.ReadText(set, []byte(rule), "two.yaml", false)...)
	ds = append(ds, Static(set, Options{Master: master.DefaultOptions(), Outputs: true})...)
	if got := findingsOf(ds, "duplicate-object"); len(got) != 1 {
		t.Errorf("duplicate-object findings = %q, want one", got)
	}
	if got := findingsOf(ds, "duplicate-rule-name"); len(got) != 0 {
		t.Errorf("the copy's rules are reported as duplicates of themselves: %q", got)
	}
}

func TestTemplateIndexOfADottedFeatureNameNeverHoldsData(t *testing.T) {
	runMistakeCases(t, "template", []mistakeCase{
		{"index-dotted-name", "  - name: a\n    labelsTemplate: '{{ range index . \"pci.device\" }}vendor-{{ .vendor }}=true\n{{ end }}'\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}]\n",
			`error spec.rules[0].labelsTemplate: template reads index . "pci.device", a key the template data never has`},
		{"index-then-index", "  - name: a\n    varsTemplate: '{{ with index . \"kernel.version\" }}{{ index . \"major\" }}{{ end }}'\n    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n",
			`write .kernel.version or index . "kernel" "version"`},
		{"nested-index-is-fine", "  - name: a\n    labelsTemplate: '{{ range index . \"pci\" \"device\" }}vendor-{{ .vendor }}=true\n{{ end }}'\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}]\n", ""},
	})
}

func TestTemplateLabelsRunOnFeaturesMadeFromTheMatcher(t *testing.T) {
	runMistakeCases(t, "template-labels", []mistakeCase{
		{"space-in-key", "  - name: a\n    labelsTemplate: '{{ range .pci.device }}vendor {{ .vendor }}=true\n{{ end }}'\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}]\n",
			`the template writes label "vendor 8086"="true"`},
		{"not-key-value", "  - name: a\n    labelsTemplate: '{{ range .pci.device }}vendor-{{ .vendor }}\n{{ end }}'\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}]\n",
			"not a key=value line"},
		{"value-from-a-dmi-string", "  - name: a\n    labelsTemplate: 'vendor={{ range .system.dmiid }}{{ .Value }}{{ end }}'\n    matchFeatures: [{feature: system.dmiid, matchExpressions: {sys_vendor: {op: In, value: [\"Dell Inc.\"]}}}]\n",
			`invalid value`},
		{"good-template", "  - name: a\n    labelsTemplate: '{{ range .pci.device }}vendor-{{ .vendor }}=true\n{{ end }}'\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"8086\"]}}}]\n", ""},
		{"each-matchany-element", "  - name: a\n    labelsTemplate: '{{ range .kernel.loadedmodule }}mod {{ .Name }}=true\n{{ end }}'\n    matchAny:\n    - matchFeatures: [{feature: kernel.loadedmodule, matchExpressions: {nvidia: {op: Exists}}}]\n", `"mod nvidia"`},
	})
}

func TestGroupNamespaceOutsideNfdMastersIsNeverWritten(t *testing.T) {
	group := func(ns string) string {
		return "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureGroup\nmetadata: {name: g, namespace: " + ns + "}\nspec:\n  featureGroupRules:\n  - name: a\n    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n"
	}
	opts := master.DefaultOptions()
	opts.NodeFeatureGroups = true
	for _, tc := range []struct {
		ns         string
		gateNamed  bool
		want, note int
	}{{"default", false, 1, 1}, {master.DefaultNamespace, false, 0, 1}, {"default", true, 1, 0}} {
		set := &objects.Set{}
		testkit.ReadText(set, []byte(group(tc.ns)), "g.yaml", false)
		o := opts
		o.GroupGateNamed = tc.gateNamed
		var warn, info int
		for _, d := range Static(set, Options{Master: o}) {
			if d.Check == "group-namespace" && d.Severity == diag.Warning {
				warn++
			} else if d.Check == "group-namespace" && d.Severity == diag.Info {
				info++
			}
		}
		if warn != tc.want || info != tc.note {
			t.Errorf("namespace %s, gate named %v: %d warnings, %d notes; want %d, %d", tc.ns, tc.gateNamed, warn, info, tc.want, tc.note)
		}
	}
}

func TestGroupNamespaceWarningSaysWhatRenderWrites(t *testing.T) {
	group := "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureGroup\nmetadata: {name: g, namespace: default}\nspec:\n  featureGroupRules:\n  - name: a\n    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n"
	for _, tc := range []struct {
		name               string
		known, allNs       bool
		masterNs, wantText string
	}{
		{"unknown-namespace-renders-a-fixed-masters-status", false, false, master.DefaultNamespace, `outside nfd-master's default namespace "node-feature-discovery"`},
		{"known-namespace-keeps-the-status", true, false, "nfd", `outside nfd-master's "nfd": nfd-master v0.19.0 (nfd-fn's default: nfdVersion unset) looks groups up by name in its own namespace, so it never writes this group's status (NFD #2385); render leaves the status as it was`},
		{"all-namespaces-asked-for", true, true, "nfd", ""},
		{"all-namespaces-asked-for-namespace-unknown", false, true, master.DefaultNamespace, ""},
		{"group-in-the-known-namespace", true, false, "default", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := &objects.Set{}
			testkit.ReadText(set, []byte(group), "g.yaml", false)
			o := master.DefaultOptions()
			o.NodeFeatureGroups, o.GroupGateNamed = true, true
			o.Namespace, o.NamespaceKnown, o.GroupStatusAllNamespaces = tc.masterNs, tc.known, tc.allNs
			var got []string
			for _, d := range Static(set, Options{Master: o}) {
				if d.Check == "group-namespace" {
					got = append(got, string(d.Severity)+": "+d.Message)
				}
			}
			switch {
			case tc.wantText == "" && len(got) > 0:
				t.Errorf("want no finding, got %q", got)
			case tc.wantText != "" && (len(got) != 1 || !strings.Contains(got[0], "warning: ") || !strings.Contains(got[0], tc.wantText)):
				t.Errorf("got %q, want one warning containing %q", got, tc.wantText)
			}
		})
	}
}

func TestRuleThatWritesNothingIsAWarning(t *testing.T) {
	runMistakeCases(t, "rule", []mistakeCase{
		{"no-outputs", "  - name: a\n" + matchKernel, `warning spec.rules[0]: rule "a" writes nothing`},
		{"vars-only", "  - name: a\n    vars: {v: \"1\"}\n" + matchKernel, ""},
	})
}

func TestPCIIDsInTheFormNfdWorkerPublishes(t *testing.T) {
	runMistakeCases(t, "pci-class", []mistakeCase{
		{"0x-prefix-and-upper-case", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: [\"0x10de\", \"10DE\", \"8086\"]}}}]\n",
			`["0x10de" "10DE"] are not vendor ids as nfd-worker publishes them`},
		{"lower-case-hex", "  - name: a\n    labels: {a: \"1\"}\n    matchFeatures: [{feature: pci.device, matchExpressions: {device: {op: In, value: [\"a7a0\"]}}}]\n", ""},
	})
}

func TestTemplateThatFailsOnFeaturesMadeFromItsMatcher(t *testing.T) {
	runMistakeCases(t, "template", []mistakeCase{
		{"field-of-an-element-list-fails-on-every-node", "  - name: a\n    labelsTemplate: 'x={{ .kernel.version.major.Value }}'\n    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n",
			"error spec.rules[0].labelsTemplate: template reads .kernel.version.major.Value: feature kernel.version is a list of elements in templates, which has no field major"},
		{"index-past-the-sample-elements", "  - name: a\n    labelsTemplate: 'x={{ (index .kernel.version 9).Value }}'\n    matchFeatures: [{feature: kernel.version, matchExpressions: {major: {op: Exists}}}]\n",
			"warning spec.rules[0].labelsTemplate: on features made from its matcher (kernel.version), the template fails"},
		{"element-a-node-may-have", "  - name: a\n    labelsTemplate: '{{ range .local.feature }}x={{ .Value }}{{ end }}'\n    matchFeatures: [{feature: local.feature, matchExpressions: {foo: {op: Exists}}}]\n", ""},
	})
}
