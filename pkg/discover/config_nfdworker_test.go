package discover

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sigsyaml "sigs.k8s.io/yaml"

	nfdrelease "github.com/nfd-fn/nfd-fn/pkg/release"
)

// The expectations in this file are what nfd-worker v0.19.0 reads from each
// configuration, derived from its code (pkg/nfd-worker/nfd-worker.go
// loadConfigFile, sourcesConfig.UnmarshalJSON and configureCore; the source
// packages' Config types; sigs.k8s.io/yaml v1.6.0 over go.yaml.in/yaml/v2),
// since nfd-worker cannot run here. decodeLikeNfdWorker below replays
// nfd-worker's own decoding path, map of sources included, for the
// differential tests.

// nfdSources is nfd-worker's sourcesConfig: a map of pre-populated source
// configurations decoded key by key.
type nfdSources map[string]any

// UnmarshalJSON follows nfd-worker's sourcesConfig.UnmarshalJSON: a raw
// map first, then each key that exists in the map decoded into a copy of
// the interface that holds the source's configuration pointer.
func (c *nfdSources) UnmarshalJSON(data []byte) error {
	raw := map[string]json.RawMessage{}
	if err := sigsyaml.Unmarshal(data, &raw); err != nil {
		return err
	}
	for k, rawv := range raw {
		if v, ok := (*c)[k]; ok {
			if err := sigsyaml.Unmarshal(rawv, &v); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeLikeNfdWorker decodes a configuration the way nfd-worker's
// configure does, into nfd-fn's leaf types, and returns the result in
// nfd-fn's workerConfig shape.
func decodeLikeNfdWorker(data []byte) (workerConfig, error) {
	d := defaultWorkerConfig()
	var nfd struct {
		Core    coreConfig
		Sources nfdSources
	}
	nfd.Core = d.Core
	nfd.Sources = nfdSources{
		"cpu": &d.Sources.CPU, "kernel": &d.Sources.Kernel, "pci": &d.Sources.PCI, "usb": &d.Sources.USB,
		"custom": &d.Sources.Custom, "local": &d.Sources.Local, "fake": &d.Sources.Fake,
	}
	if err := sigsyaml.Unmarshal(data, &nfd); err != nil {
		return d, err
	}
	d.Core = nfd.Core
	return d, checkKlogOptions(d.Core.Klog)
}

// workerConfigCorpus are configurations as users write them, for the
// differential tests and as fuzz seeds.
var workerConfigCorpus = []string{
	"",
	"# only a comment\n",
	"sources: {PCI: {deviceClassWhitelist: ['02']}, pci: {DeviceClassWhitelist: [0300]}}",
	"sources: {Custom: [{name: r, labels: {a: b}}], Kernel: {configOpts: [X]}}",
	"Core: {LabelWhiteList: '^pci', FEATURESOURCES: [pci]}\nSOURCES: {usb: {deviceClassWhitelist: [0e, ef]}}",
	"Custom: [{name: r}]",
	"sources: {pci: {deviceClassWhitelist: [0108, 02, 0300]}}",
	"sources: {custom: [{name: 1.10, labels: {x: true, yes: on, f: 3.14159265}, vars: {y: 1}, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: 0x8086, class: {op: In, value: 0300}}}]}]}",
	"sources: {pci: ~, usb: {deviceClassWhitelist: ~}, custom: ~}",
	"sources: ~",
	"sources: {pci: 5}",
	"sources: []",
	"sources: {local: {hooksEnabled: true}}",
	"sources: {local: 5}",
	"sources: {fake: {labels: [a]}}",
	"core: {klog: {v: 3, logtostderr: yes, notAnOption: x}, sleepInterval: 60, ownerRefs: [ds, pod]}",
	"core: {klog: {v: abc}}",
	"core: {sleepInterval: ~}",
	"core: {sleepInterval: 1y}",
	"core: {ownerRefs: [pod, pod]}",
	"core: {ownerRefs: [cluster]}",
	"core: {ownerRefs: ~}",
	"core: {labelWhiteList: 123}",
	"core: {labelWhiteList: ~}",
	"core: {noPublish: 'true'}",
	"core: {noPublish: yes}",
	"core: {featureSources: all}",
	"core: {labelWhiteList: a, labelwhitelist: b}",
	"sources: {custom: [{name: r, matchFeatures: [{feature: a.b, matchExpressions: {k: {op: In, value: [1, 2]}}}]}]}",
	"sources: {custom: [{name: r, matchFeatures: [{feature: a.b, matchExpressions: {k: {op: In, value: ~}}}]}]}",
	"sources: {custom: [{name: r, matchFeatures: [{feature: a.b, matchExpressions: [a, b=0300]}]}]}",
	"sources: {cpu: {cpuid: {attributeWhitelist: [AVX512F, 1e3]}}, kernel: {kconfigFile: 0777}}",
	"core: {klog: {v: 3}}\n---\ncore: {klog: {v: abc}}",
	"x-pci: &pci {deviceClassWhitelist: [0200]}\nsources:\n  pci:\n    <<: *pci\n    deviceLabelFields: [vendor]\n  usb: {<<: [*pci]}",
	"sources: {fake: {instanceFeatures: [{name: a}], labels: {x: 1}}}",
}

func TestWorkerConfigDecodesAsNfdWorkerDecodes(t *testing.T) {
	for _, in := range workerConfigCorpus {
		t.Run(strings.NewReplacer(" ", "", "\n", "|").Replace(in), func(t *testing.T) { compareWithNfdWorker(t, in) })
	}
}

// FuzzWorkerConfigDecodesAsNfdWorkerDecodes compares nfd-fn's decoder with
// nfd-worker's decoding path on arbitrary configurations.
func FuzzWorkerConfigDecodesAsNfdWorkerDecodes(f *testing.F) {
	for _, in := range workerConfigCorpus {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { compareWithNfdWorker(t, in) })
}

// compareWithNfdWorker checks that both decoders agree on success and, on
// success, on every setting; the warnings of both readers of the
// configuration must come without a panic too.
func compareWithNfdWorker(t *testing.T, in string) {
	t.Helper()
	for _, rel := range releases() {
		for _, confine := range []bool{false, true} {
			_, _, _ = parseWorkerConfig([]byte(in), rel, confine)
		}
	}
	want, wantErr := decodeLikeNfdWorker([]byte(in))
	got := defaultWorkerConfig()
	gotErr := decodeWorkerConfig([]byte(in), &got, latestRelease())
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("nfd-worker error %v, nfd-fn error %v", wantErr, gotErr)
	}
	if wantErr != nil {
		return
	}
	opts := cmp.Options{cmp.AllowUnexported(workerConfig{}), cmp.Comparer(func(a, b regexpValue) bool {
		return (a.re == nil) == (b.re == nil) && (a.re == nil || a.re.String() == b.re.String())
	}), cmp.AllowUnexported(durationValue{})}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("(-nfd-worker +nfd-fn):\n%s", diff)
	}
}

func TestWorkerConfigKeyCaseIsExactForSourcesOnly(t *testing.T) {
	def := defaultWorkerConfig()
	tests := []struct {
		name, config string
		pci          []string
		custom       int
		whitelist    string
	}{
		// sources is a Go map: "PCI" is not "pci", so the PCI source keeps
		// its defaults and a telco whitelist under PCI: does nothing.
		{"sources-PCI-is-ignored", "sources: {PCI: {deviceClassWhitelist: ['0200']}}", def.Sources.PCI.DeviceClassWhitelist, 0, ""},
		{"sources-Custom-is-ignored", "sources: {Custom: [{name: r, labels: {a: b}}]}", def.Sources.PCI.DeviceClassWhitelist, 0, ""},
		// Only core and sources exist at the top: a top-level custom list
		// is an unknown field.
		{"top-level-custom-is-ignored", "custom: [{name: r, labels: {a: b}}]", def.Sources.PCI.DeviceClassWhitelist, 0, ""},
		// Struct fields match as encoding/json matches them: any case.
		{"struct-fields-match-any-case", "CORE: {labelwhitelist: '^pci'}\nSources: {pci: {DEVICECLASSWHITELIST: ['0200']}, custom: [{NAME: r}]}", []string{"0200"}, 1, "^pci"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := parseWorkerConfig([]byte(tt.config), latestRelease(), false)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.pci, c.Sources.PCI.DeviceClassWhitelist); diff != "" {
				t.Errorf("pci.deviceClassWhitelist (-want +got):\n%s", diff)
			}
			if len(c.Sources.Custom) != tt.custom {
				t.Errorf("%d custom rules, want %d", len(c.Sources.Custom), tt.custom)
			}
			if c.labelWhiteList.String() != tt.whitelist {
				t.Errorf("labelWhiteList %q, want %q", c.labelWhiteList, tt.whitelist)
			}
		})
	}
}

func TestWorkerConfigYAML11ScalarsBecomeTheStringsNfdWorkerUses(t *testing.T) {
	c, _, err := parseWorkerConfig([]byte(`
core: {klog: {v: 3}, featureSources: [all, -memory], labelSources: [~]}
sources:
  pci: {deviceClassWhitelist: [0108, 02, 0300, 0x12, 1_2, 12.0]}
  kernel: {kconfigFile: 0777, configOpts: [yes, n, off, 1e3, 3.14159265, 12345678.9]}
  custom:
    - name: 1.10
      labels: {x: true, yes: on, 0300: 1, f: .5}
      vars: {y: 1}
      matchFeatures:
        - feature: pci.device
          matchExpressions: {vendor: 0x8086, class: {op: In, value: 0300}, device: 12345678.9, rev: yes, sub: 1e21}
`), latestRelease(), false)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, want, got any) {
		t.Helper()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", what, diff)
		}
	}
	check("klog", map[string]string{"v": "3"}, c.Core.Klog)
	// A null list item leaves the element it overlays as it was: the
	// default "all" here, as encoding/json decodes into existing elements.
	check("labelSources", []string{"all"}, c.Core.LabelSources)
	// YAML 1.1: a leading 0 is octal (0108 is not, so it is the float 108),
	// 0x is hex, underscores are dropped; floats are written at float32
	// precision in Go strings.
	check("pci", []string{"108", "2", "192", "18", "12", "12"}, c.Sources.PCI.DeviceClassWhitelist)
	check("kconfigFile", "511", c.Sources.Kernel.KconfigFile)
	check("configOpts", []string{"true", "false", "false", "1000", "3.1415927", "1.2345679e+07"}, c.Sources.Kernel.ConfigOpts)
	r := c.Sources.Custom[0]
	check("name", "1.1", r.Name)
	// Keys are resolved too: "y" and "yes" are booleans in YAML 1.1.
	check("labels", map[string]string{"x": "true", "true": "true", "192": "1", "f": "0.5"}, r.Labels)
	check("vars", map[string]string{"true": "1"}, r.Vars)
	// Expression values go through the custom-rule API's decoder: floats
	// in full, at float64 precision.
	got := map[string][]string{}
	for k, e := range *r.MatchFeatures[0].MatchExpressions {
		got[k] = e.Value
	}
	check("expressions", map[string][]string{"vendor": {"32902"}, "class": {"192"}, "device": {"12345678.9"},
		"rev": {"true"}, "sub": {"1000000000000000000000"}}, got)
}

func TestWorkerConfigWarnsWithTheValueNfdWorkerUses(t *testing.T) {
	tests := []struct {
		name, config string
		want         []string
	}{
		{"octal-class", "sources: {pci: {deviceClassWhitelist: [0300, '0200', 03]}}", []string{
			`line 1: sources.pci.deviceClassWhitelist[0]: nfd-worker reads the unquoted value 0300 as "192" (YAML 1.1 takes it for a number); quote it to mean "0300"`,
			`line 1: sources.pci.deviceClassWhitelist[2]: nfd-worker reads the unquoted value 03 as "3" (YAML 1.1 takes it for a number); quote it to mean "03"`}},
		{"what-it-says-is-what-it-gets", "sources: {custom: [{name: r, labels: {x: true, m: 1}, vars: {z: 12}}]}", nil},
		{"boolean-key-and-value", "sources: {custom: [{name: r, labels: {yes: on}}]}", []string{
			`line 1: sources.custom[0].labels: nfd-worker reads the unquoted key yes as "true" (YAML 1.1 takes it for a boolean); quote it to mean "yes"`,
			`line 1: sources.custom[0].labels.yes: nfd-worker reads the unquoted value on as "true" (YAML 1.1 takes it for a boolean); quote it to mean "on"`}},
		{"float32-in-a-string", "core: {klog: {logDir: 1.10}}", []string{
			`line 1: core.klog.logDir: nfd-worker reads the unquoted value 1.10 as "1.1" (YAML 1.1 takes it for a number); quote it to mean "1.10"`}},
		{"null-in-a-string", "core: {featureSources: [~]}", []string{
			`line 1: core.featureSources[0]: nfd-worker reads the unquoted value ~ as null, which leaves the value as it was (empty, or the default it overlays); quote it to mean "~"`}},
		{"hex-expression-value", "sources: {custom: [{name: r, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: 0x8086}}]}]}", []string{
			`line 1: sources.custom[0].matchFeatures[0].matchExpressions.vendor: nfd-worker reads the unquoted value 0x8086 as "32902" (YAML 1.1 takes it for a number); quote it to mean "0x8086"`}},
		{"quoted-and-tagged-are-kept", "sources: {pci: {deviceClassWhitelist: ['0300', \"0300\", !!str 0300]}}", nil},
		{"merge-keys-are-not-fields", "x-pci: &pci {deviceClassWhitelist: ['02']}\nsources:\n  pci:\n    <<: *pci\n    deviceLabelFields: [vendor]\n  usb: {<<: [*pci], deviceLabelField: [vendor]}", []string{
			`line 1: x-pci: unknown field "x-pci": nfd-worker v0.19 ignores it`,
			`line 6: sources.usb.deviceLabelField: unknown field "deviceLabelField": nfd-worker v0.19 ignores it (did you mean "deviceLabelFields"?)`}},
		{"not-a-string-place", "core: {noPublish: yes, sleepInterval: 60}", []string{
			"core.noPublish is true: nfd-worker would publish nothing; nfd-fn prints the object it would have published"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, err := parseWorkerConfig([]byte(tt.config), latestRelease(), false)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, got, _ := parseWorkerConfig([]byte("sources: {pci: {deviceClassWhitelist: [0300]}}"), latestRelease(), true)
	want := []string{"line 1: an unquoted value nfd-worker v0.19 reads otherwise than written (YAML 1.1): quote it"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("confined (-want +got):\n%s", diff)
	}
}

func TestWorkerConfigFailsWhereNfdWorkerStops(t *testing.T) {
	tests := []struct{ name, config, want string }{
		{"klog-value-of-the-wrong-type", "core: {klog: {v: abc}}", "klog.v"},
		{"klog-bool", "core: {klog: {logtostderr: maybe}}", "klog.logtostderr"},
		{"sleep-interval-null", "core: {sleepInterval: ~}", "invalid duration null"},
		{"sleep-interval-bad", "core: {sleepInterval: 1y}", "unknown unit"},
		{"owner-refs-duplicate", "core: {ownerRefs: [pod, pod]}", "duplicate owner reference source"},
		{"owner-refs-unknown", "core: {ownerRefs: [cluster]}", "invalid owner reference source"},
		{"label-white-list-not-a-string", "core: {labelWhiteList: 123}", "labelWhiteList"},
		{"label-white-list-bad-regexp", "core: {labelWhiteList: '('}", "core.labelWhiteList"},
		{"no-publish-quoted", "core: {noPublish: 'true'}", "bool"},
		{"feature-sources-not-a-list", "core: {featureSources: all}", "featureSources"},
		{"source-section-not-a-map", "sources: {pci: 5}", `failed to parse "pci" source config`},
		{"local-section-not-a-map", "sources: {local: 5}", `failed to parse "local" source config`},
		{"fake-section-of-the-wrong-type", "sources: {fake: {labels: [a]}}", `failed to parse "fake" source config`},
		{"sources-a-list", "sources: []", "cannot unmarshal array"},
		{"custom-expression-numbers-in-a-list", "sources: {custom: [{name: r, matchFeatures: [{feature: a.b, matchExpressions: {k: {op: In, value: [1, 2]}}}]}]}", "invalid value"},
		{"custom-expression-null-value", "sources: {custom: [{name: r, matchFeatures: [{feature: a.b, matchExpressions: {k: {op: In, value: ~}}}]}]}", "invalid values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseWorkerConfig([]byte(tt.config), latestRelease(), false)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestWorkerConfigAcceptsWhatNfdWorkerAccepts(t *testing.T) {
	for _, in := range []string{
		"# comments only\n",
		"core: {klog: {v: 3, logtostderr: yes, vmodule: 'a=1,b=2', notAnOption: x}, sleepInterval: 60}",
		"core: {ownerRefs: [], sleepInterval: 30s}",
		"core: {ownerRefs: ~, labelWhiteList: ~}",
		"sources: ~",
		"sources: {pci: ~, memory: 5, PCI: 5}",
		"core: {klog: {v: 3}}\n---\ncore: {klog: {v: abc}}",
	} {
		if _, _, err := parseWorkerConfig([]byte(in), latestRelease(), false); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestNamedWorkerConfigThatDoesNotExistIsAnError: a configuration named
// (--config, workerConfig) must be read; only when none is named do
// nfd-worker's defaults stand in.
func TestNamedWorkerConfigThatDoesNotExistIsAnError(t *testing.T) {
	o := fixtureOptions(t, "bare-host")
	if _, _, err := Discover(context.Background(), o); err != nil {
		t.Fatalf("no configuration named: %v, want nfd-worker's defaults", err)
	}
	o.WorkerConfigPath = filepath.Join(t.TempDir(), "nfd-worker.conf")
	if _, _, err := Discover(context.Background(), o); err == nil || !strings.Contains(err.Error(), o.WorkerConfigPath+" does not exist") {
		t.Errorf("a named configuration that does not exist: %v, want an error naming it", err)
	}
	if err := os.Mkdir(o.WorkerConfigPath, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Discover(context.Background(), o); err == nil {
		t.Error("a directory as the configuration file: no error, want one (nfd-worker fails to read it)")
	}
}

func TestFakeSourceRunsOnlyWhenTheConfigNamesIt(t *testing.T) {
	const ns = "feature.node.kubernetes.io/"
	tests := []struct {
		name, config string
		wantFlags    []string
		wantLabel    bool
		instance0    map[string]string
	}{
		{"all-leaves-it-out", "core: {featureSources: [all], labelSources: [all]}", nil, false, nil},
		{"named-it-runs-with-its-defaults", "core: {featureSources: [all, fake], labelSources: [all, fake]}",
			[]string{"flag_1", "flag_2", "flag_3"}, true,
			map[string]string{"name": "instance_1", "attr_1": "true", "attr_2": "false", "attr_3": "10", "attr_4": "foobar"}},
		// encoding/json decodes a list into the default list's elements, so
		// an instance given in the config is merged into the default one.
		{"configured-instances-merge-into-the-defaults", "core: {featureSources: [fake], labelSources: [-fake]}\nsources: {fake: {flagFeatures: [x], instanceFeatures: [{name: a}]}}",
			[]string{"x"}, false,
			map[string]string{"name": "a", "attr_1": "true", "attr_2": "false", "attr_3": "10", "attr_4": "foobar"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := fixtureOptions(t, "bare-host")
			o.WorkerConfig = []byte(tt.config)
			nf, _, err := Discover(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			f := nf.Spec.Features
			flags, ok := f.Flags["fake.flag"]
			if (tt.wantFlags != nil) != ok {
				t.Fatalf("fake.flag present %v, want %v", ok, tt.wantFlags != nil)
			}
			if diff := cmp.Diff(tt.wantFlags, sortedKeys(flags.Elements)); ok && diff != "" {
				t.Errorf("fake.flag (-want +got):\n%s", diff)
			}
			if ok {
				if diff := cmp.Diff(tt.instance0, f.Instances["fake.instance"].Elements[0].Attributes); diff != "" {
					t.Errorf("fake.instance[0] (-want +got):\n%s", diff)
				}
			}
			if _, got := nf.Spec.Labels[ns+"fake-fakefeature1"]; got != tt.wantLabel {
				t.Errorf("label fake-fakefeature1 present %v, want %v", got, tt.wantLabel)
			}
		})
	}
}

// latestRelease is the release Discover reproduces by default.
func latestRelease() release { return releases()[nfdrelease.LatestWorker.Minor] }
