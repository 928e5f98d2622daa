package discover

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWorkerConfigWarnsAboutFieldsNfdWorkerIgnores(t *testing.T) {
	tests := []struct {
		name, config string
		want         []string
	}{
		{"known-fields-any-case", "core: {LabelWhiteList: x, sleepInterval: 60s, klog: {v: 3}}\nsources: {kernel: {KconfigFile: /k, configOpts: [A]}, cpu: {cpuid: {attributeWhitelist: [AVX]}}}", nil},
		{"kernel-module-whitelist-is-not-v019", "sources: {kernel: {moduleWhiteList: [a]}}",
			[]string{`line 1: sources.kernel.moduleWhiteList: unknown field "moduleWhiteList": nfd-worker v0.19 ignores it`}},
		{"local-hooks-are-gone", "sources:\n  local:\n    hooksEnabled: true",
			[]string{`line 3: sources.local.hooksEnabled: unknown field "hooksEnabled": nfd-worker v0.19 ignores it`}},
		{"unconfigurable-source", "sources: {memory: {x: 1}}",
			[]string{`line 1: sources.memory: nfd-worker v0.19 has no settings for a source "memory" and ignores them (configurable sources: cpu, custom, fake, kernel, local, pci, usb)`}},
		{"source-names-are-case-sensitive", "sources: {PCI: {}}",
			[]string{`line 1: sources.PCI: nfd-worker v0.19 has no source "PCI" and ignores these settings: source names are case-sensitive, write "pci"`}},
		{"top-level-custom-belongs-under-sources", "custom: []",
			[]string{`line 1: custom: unknown field "custom": nfd-worker v0.19 ignores it; source settings go under sources.custom`}},
		{"misspelt-core-field", "core: {labelWhitelist: x, featureSource: [cpu]}",
			[]string{`line 1: core.featureSource: unknown field "featureSource": nfd-worker v0.19 ignores it (did you mean "featureSources"?)`}},
		{"misspelt-pci-field", "sources: {pci: {deviceClassWhiteList: ['02'], deviceLabelField: [vendor]}}",
			[]string{`line 1: sources.pci.deviceLabelField: unknown field "deviceLabelField": nfd-worker v0.19 ignores it (did you mean "deviceLabelFields"?)`}},
		{"top-level-typo", "source: {}",
			[]string{`line 1: source: unknown field "source": nfd-worker v0.19 ignores it (did you mean "sources"?)`}},
		{"rule-fields-only-nodefeaturerules-have", "sources: {custom: [{name: r, taints: [], labels: {a: b}}]}",
			[]string{`line 1: sources.custom[0].taints: unknown field "taints": nfd-worker v0.19 ignores it; only NodeFeatureRule objects have it, worker rules make labels and vars`}},
		{"legacy-matchon-rule-is-ignored", "sources: {custom: [{name: l, matchOn: [{pciID: {vendor: [a]}}]}]}",
			[]string{`line 1: sources.custom[0].matchOn: unknown field "matchOn": nfd-worker v0.19 ignores it; legacy matchOn rules were removed in NFD v0.15, so this rule has no matcher and makes no label from its name`}},
		{"new-v019-core-fields-are-known", "core: {ownerRefs: [], noPublishFeatures: [pci.device]}", nil},
		{"no-publish", "core: {noPublish: true}",
			[]string{"core.noPublish is true: nfd-worker would publish nothing; nfd-fn prints the object it would have published"}},
		{"invalid-pci-label-field", "sources: {pci: {deviceLabelFields: [vendor, bogus]}}",
			[]string{`sources.pci.deviceLabelFields: ignoring invalid fields ["bogus"] (valid: class, vendor, device, subsystem_vendor, subsystem_device)`}},
		{"no-valid-usb-label-field", "sources: {usb: {deviceLabelFields: [product]}}",
			[]string{`sources.usb.deviceLabelFields: ignoring invalid fields ["product"] (valid: class, vendor, device, serial)`,
				"sources.usb.deviceLabelFields: no valid fields, using the defaults"}},
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
}

func TestWorkerConfigSettingsShapeLabels(t *testing.T) {
	const ns = "feature.node.kubernetes.io/"
	tests := []struct {
		name, config string
		present      map[string]string
		absent       []string
	}{
		{"cpu-blacklist-replaces-the-default", "sources: {cpu: {cpuid: {attributeBlacklist: [AVX]}}}",
			map[string]string{ns + "cpu-cpuid.CMOV": "true", ns + "cpu-cpuid.SSE4": "true"}, []string{ns + "cpu-cpuid.AVX"}},
		{"cpu-whitelist-wins-over-blacklist", "sources: {cpu: {cpuid: {attributeWhitelist: [AVX2], attributeBlacklist: [AVX2]}}}",
			map[string]string{ns + "cpu-cpuid.AVX2": "true", ns + "cpu-cpuid.AVX10_VERSION": "1"}, []string{ns + "cpu-cpuid.AVX", ns + "cpu-cpuid.X86_64_V1"}},
		{"kernel-config-opts", "sources: {kernel: {configOpts: [KVM_INTEL, GCC_VERSION, ABSENT]}}",
			map[string]string{ns + "kernel-config.KVM_INTEL": "true", ns + "kernel-config.GCC_VERSION": "130200"},
			[]string{ns + "kernel-config.NO_HZ", ns + "kernel-config.ABSENT"}},
		{"kernel-kconfig-file-read-first", "sources: {kernel: {kconfigFile: /etc/kernel/alt.config, configOpts: [ALT_ONLY, NO_HZ, X86]}}",
			map[string]string{ns + "kernel-config.ALT_ONLY": "true", ns + "kernel-config.NO_HZ": "n"}, []string{ns + "kernel-config.X86"}},
		{"kernel-missing-kconfig-file-falls-back", "sources: {kernel: {kconfigFile: /nowhere, configOpts: [X86]}}",
			map[string]string{ns + "kernel-config.X86": "true"}, nil},
		{"pci-class-whitelist", "sources: {pci: {deviceClassWhitelist: ['02', '06']}}",
			map[string]string{ns + "pci-0200_15b3.present": "true", ns + "pci-0200_15b3.sriov.capable": "true", ns + "pci-0600_8086.present": "true"},
			[]string{ns + "pci-0300_8086.present"}},
		{"pci-label-fields-in-attribute-order", "sources: {pci: {deviceLabelFields: [subsystem_vendor, vendor, bogus]}}",
			map[string]string{ns + "pci-8086_1043.present": "true"}, []string{ns + "pci-0300_8086.present"}},
		{"pci-no-valid-label-field-uses-defaults", "sources: {pci: {deviceLabelFields: [bogus]}}",
			map[string]string{ns + "pci-0300_8086.present": "true"}, nil},
		{"usb-class-whitelist-uppercase", "sources: {usb: {deviceClassWhitelist: ['FF', '09']}}",
			map[string]string{ns + "usb-09_1d6b_0002.present": "true", ns + "usb-ff_0403_6001.present": "true"}, []string{ns + "usb-03_046d_c52b.present"}},
		{"usb-serial-label", "sources: {usb: {deviceLabelFields: [vendor, serial]}}",
			map[string]string{ns + "usb-0403_A50285BI.present": "true"}, []string{ns + "usb-ff_0403_6001.present"}},
		{"label-white-list-on-name-part", "core: {labelWhiteList: '^cpu-model'}",
			map[string]string{ns + "cpu-model.vendor_id": "Intel"}, []string{ns + "kernel-version.major", "e1000.present", ns + "cpu-cstate.enabled"}},
		{"label-sources-restrict-labels", "core: {labelSources: [system]}",
			map[string]string{ns + "system-os_release.ID": "ubuntu"}, []string{ns + "kernel-version.major", "e1000.present"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := fixtureOptions(t, "full-host")
			o.WorkerConfig = []byte(tt.config)
			nf, _, err := Discover(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range tt.present {
				if got, ok := nf.Spec.Labels[k]; !ok || got != want {
					t.Errorf("label %s = %q (present %v), want %q", k, got, ok, want)
				}
			}
			for _, k := range tt.absent {
				if v, ok := nf.Spec.Labels[k]; ok {
					t.Errorf("label %s = %q is present, want it absent", k, v)
				}
			}
		})
	}
}
