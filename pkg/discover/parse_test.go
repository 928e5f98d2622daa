package discover

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseKernelVersionSplitsRelease(t *testing.T) {
	tests := []struct {
		name, raw string
		want      map[string]string
	}{
		{"distro-release", "6.8.0-45-generic", map[string]string{"full": "6.8.0-45-generic", "major": "6", "minor": "8", "revision": "0"}},
		{"no-revision", "6.1-rc3", map[string]string{"full": "6.1-rc3", "major": "6", "minor": "1", "revision": ""}},
		{"forbidden-characters-replaced", "5.14.0+rt~1", map[string]string{"full": "5.14.0_rt_1"}},
		{"edges-trimmed", "_6.2.1.", map[string]string{"full": "6.2.1", "major": "6", "minor": "2", "revision": "1"}},
		{"not-a-version", "custom", map[string]string{"full": "custom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseKernelVersion(tt.raw)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseKconfigKeepsRealAndLegacyValues(t *testing.T) {
	raw := "# comment\nCONFIG_A=y\nCONFIG_B=m\nCONFIG_C=\"str\"\n# CONFIG_D is not set\nCONFIG_E=42\nCONFIG_NOEQ\nNOT_CONFIG=y\n"
	real, legacy := parseKconfig([]byte(raw))
	if diff := cmp.Diff(map[string]string{"A": "y", "B": "m", "C": "str", "E": "42"}, real); diff != "" {
		t.Errorf("real (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"A": "true", "B": "true", "C": "str", "E": "42"}, legacy); diff != "" {
		t.Errorf("legacy (-want +got):\n%s", diff)
	}
}

func TestParseModulesListsNames(t *testing.T) {
	if diff := cmp.Diff([]string{"e1000", "kvm"}, parseLoadedModules("e1000 1 0 - Live 0x0\n\nkvm 2 1 x, Live 0x0\n")); diff != "" {
		t.Errorf("loaded (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"loop", "ext4"}, parseBuiltinModules("kernel/drivers/block/loop.ko\n  kernel/fs/ext4/ext4.ko \nmodules.order\n")); diff != "" {
		t.Errorf("builtin (-want +got):\n%s", diff)
	}
}

func TestParseOSReleaseIgnoresOddLines(t *testing.T) {
	tests := []struct {
		name, raw string
		want      map[string]string
	}{
		{"quoted-and-split-version", "ID=\"rhel\"\nVERSION_ID='9.4'\n", map[string]string{"ID": "rhel", "VERSION_ID": "9.4", "VERSION_ID.major": "9", "VERSION_ID.minor": "4"}},
		{"major-only", "VERSION_ID=12\n", map[string]string{"VERSION_ID": "12", "VERSION_ID.major": "12"}},
		{"non-numeric-version", "VERSION_ID=rolling\n", map[string]string{"VERSION_ID": "rolling"}},
		{"unparsable-lines", "# c\nno equals\n=x\nEMPTY=\nA-B=1\n  ID=indented\n", map[string]string{}},
		{"three-components", "VERSION_ID=15.5.1\n", map[string]string{"VERSION_ID": "15.5.1", "VERSION_ID.major": "15", "VERSION_ID.minor": "5"}},
		{"crlf-line-ends-dropped", "ID=ubuntu\r\nVARIANT_ID=\"server\"\r\n", map[string]string{"ID": "ubuntu", "VARIANT_ID": "server"}},
		{"line-of-64-kib-ends-the-file", "ID=a\nX=" + strings.Repeat("x", 64<<10) + "\nVERSION_ID=1\n", map[string]string{"ID": "a"}},
		{"last-line-without-newline", "ID=a", map[string]string{"ID": "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problems := parseOSRelease([]byte(tt.raw))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(problems) > 0 {
				t.Errorf("problems: %v", problems)
			}
		})
	}
}

func TestOddCharacterInOSReleaseLosesOnlyItsValue(t *testing.T) {
	for _, odd := range []string{"\x7f", "\u0085", "\ufffe"} {
		t.Run(fmt.Sprintf("%U", []rune(odd)[0]), func(t *testing.T) {
			got, problems := parseOSRelease([]byte("ID=ubuntu\nPRETTY_NAME=\"a" + odd + "b\"\nVERSION_ID=24.04\n"))
			want := map[string]string{"ID": "ubuntu", "VERSION_ID": "24.04", "VERSION_ID.major": "24", "VERSION_ID.minor": "04"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(problems) != 1 || problems[0].line != 2 || strings.Contains(problems[0].brief, "PRETTY_NAME") {
				t.Errorf("problems = %+v, want one on line 2 whose brief quotes nothing", problems)
			}
		})
	}
}

func TestInvalidUTF8BecomesReplacementCharactersAsInJSON(t *testing.T) {
	got, err := cleanValue("a\xffb\xfe")
	if err != nil || got != "a\ufffdb\ufffd" {
		t.Errorf("cleanValue = %q, %v; want each invalid byte replaced by U+FFFD", got, err)
	}
}

func TestParseFeatureFileAppliesDirectives(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name                   string
		raw                    string
		wantFeatures, wantLabs map[string]string
		wantErrs               int
	}{
		{"value-defaults-to-true", "a\nb=1\nns.io/c=x=y\n", map[string]string{"a": "true", "b": "1", "ns.io/c": "x=y"}, map[string]string{"a": "true", "b": "1", "ns.io/c": "x=y"}, 0},
		{"later-line-wins", "a=1\na=2\n", map[string]string{"a": "2"}, map[string]string{"a": "2"}, 0},
		{"no-label-applies-to-next-key-only", "# +no-label\na\nb\n", map[string]string{"a": "true", "b": "true"}, map[string]string{"b": "true"}, 0},
		{"no-feature-removes-earlier-key", "a=1\n# +no-feature\na=2\n", map[string]string{}, map[string]string{"a": "2"}, 0},
		{"expired-lines-skipped", "# +expiry-time=2024-12-31T23:59:59Z\nold\n# +expiry-time=2025-06-01T00:00:00Z\nnew\n", map[string]string{"new": "true"}, map[string]string{"new": "true"}, 0},
		{"bad-directives-reported", "# +expiry-time\n# +expiry-time=tomorrow\n# +bogus\n# plain comment\na\n", map[string]string{"a": "true"}, map[string]string{"a": "true"}, 3},
		{"del-in-value-skips-the-line-only", "a=x\x7fy\nb=2\n", map[string]string{"b": "2"}, map[string]string{"b": "2"}, 1},
		{"nel-in-key-skips-the-line-only", "a\u0085b=1\nb=2\n", map[string]string{"b": "2"}, map[string]string{"b": "2"}, 1},
		{"ufffe-skipped-line-consumes-its-directive", "# +no-label\na=\ufffe\nb=2\n", map[string]string{"b": "2"}, map[string]string{"b": "2"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, l, errs := parseFeatureFile(tt.raw, now)
			if diff := cmp.Diff(tt.wantFeatures, f); diff != "" {
				t.Errorf("features (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantLabs, l); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if len(errs) != tt.wantErrs {
				t.Errorf("got %d errors %v, want %d", len(errs), errs, tt.wantErrs)
			}
		})
	}
}

func TestHugePagesUseResourceNames(t *testing.T) {
	got := hugePagesAttributes([][2]string{{"bogus", "1"}, {"hugepages-", "9"}, {"hugepages-0kB", "0"}, {"hugepages-1000kB", "1"},
		{"hugepages-1048576kB", "4"}, {"hugepages-2048kB", "0"}, {"hugepages-64kB", ""}})
	// "hugepages-" parses as the quantity "Ki", zero, and the later
	// hugepages-0kB takes the same key.
	want := map[string]string{"enabled": "true", "hugepages-2Mi": "0", "hugepages-1Gi": "4", "hugepages-64Ki": "",
		"hugepages-1000Ki": "1", "hugepages-0": "0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSwapNeedsMoreThanHeader(t *testing.T) {
	for raw, want := range map[string]string{"Filename Type\n": "false", "Filename Type\n/swap file 1 0 -2\n": "true", "": "false"} {
		if got := swapAttributes(raw)["enabled"]; got != want {
			t.Errorf("swapAttributes(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestTopologyCountsSocketsAndSiblings(t *testing.T) {
	tests := []struct {
		name               string
		siblings, packages []string
		want               map[string]string
	}{
		{"smt-two-sockets", []string{"0,2\n", "1-3\n"}, []string{"0", "1\n"}, map[string]string{"hardware_multithreading": "true", "socket_count": "2"}},
		{"no-smt", []string{"0\n", "1\n"}, []string{"0", "0"}, map[string]string{"hardware_multithreading": "false", "socket_count": "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, topologyAttributes(tt.siblings, tt.packages)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSSTBFComparesBaseFrequencies(t *testing.T) {
	tests := []struct {
		name    string
		nominal int
		freqs   []string
		want    bool
		wantErr bool
	}{
		{"above-nominal", 2000, []string{"2000000", "2300000"}, true, false},
		{"at-nominal", 2000, []string{"2000000"}, false, false},
		{"no-files", 0, nil, false, false},
		{"missing-cpuid-frequency", 0, []string{"2000000"}, false, true},
		{"garbage", 2000, []string{"fast"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sstBF(tt.nominal, tt.freqs)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("sstBF = %v, %v; want %v, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestMiscCapacityMatchesFirstPrefixedLine(t *testing.T) {
	data := []byte("sev 509\nsev_es 12\ntdx x\n")
	for res, want := range map[string]int64{"sev": 509, "sev_es": 12, "tdx": -1, "absent": -1} {
		if got := miscCapacity(data, res); got != want {
			t.Errorf("miscCapacity(%q) = %d, want %d", res, got, want)
		}
	}
	if got := miscCapacity(nil, "sev"); got != -1 {
		t.Errorf("miscCapacity(nil) = %d, want -1", got)
	}
}

func TestSecurityAttributesHideUnavailableCounts(t *testing.T) {
	got := securityAttributes(securityInput{tdxParam: []byte("Y\n"), sevParam: []byte("Y"), sevESParam: []byte("1"), tdxGuest: true})
	want := map[string]string{"tdx.enabled": "true", "tdx.protected": "true", "sev.enabled": "true", "sev.es.enabled": "true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := securityAttributes(securityInput{tdxParam: []byte("Y"), sevParam: []byte("N")}); len(got) != 0 {
		t.Errorf("tdx without newline or sev=N should be off, got %v", got)
	}
}

func TestRDTNeedsFeatureBits(t *testing.T) {
	leaves := map[Leaf]Regs{
		{EAX: leafExtFeatures}:   {EBX: extFeaturesEBXRDTA},
		{EAX: leafRDTAllocation}: {EBX: rdtAllocEBXL3 | rdtAllocEBXL2},
		{EAX: leafRDTMonitoring}: {EDX: rdtMonEDXL3},
	}
	want := map[string]string{"RDTL3CA": "true", "RDTL2CA": "true"}
	if diff := cmp.Diff(want, rdtAttributes(leaves, -1)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestHypervisorNames(t *testing.T) {
	tests := []struct {
		name, sysinfo string
		info          CPUInfo
		want          string
	}{
		{"bare-metal", "", CPUInfo{}, "none"},
		{"known-vendor", "", CPUInfo{VM: true, HypervisorVendor: "MSVM"}, "msvm"},
		{"raw-vendor-sanitized", "", CPUInfo{VM: true, HypervisorVendorString: "ACRN ACRN "}, "ACRN_ACRN_"},
		{"unknown-vendor", "", CPUInfo{VM: true}, "unknown"},
		{"s390x-sysinfo", "VM00 Control Program: z/VM    7.3.0\n", CPUInfo{}, "z_VM_7.3.0"},
		{"empty-control-program", "Control Program: \n", CPUInfo{}, "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hypervisor(tt.info, tt.sysinfo); got != tt.want {
				t.Errorf("hypervisor = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPstateAttributes(t *testing.T) {
	tests := []struct {
		name      string
		status    string
		noTurbo   []byte
		turboOK   bool
		governors []string
		want      map[string]string
	}{
		{"off", "off", []byte("0"), true, nil, nil},
		{"passive-skips-governor", "passive", []byte("1\n"), true, []string{"performance"}, map[string]string{"status": "passive", "turbo": "false"}},
		{"mixed-governors", "active", nil, false, []string{"performance", "powersave"}, map[string]string{"status": "active"}},
		{"common-governor", "active", []byte("0"), true, []string{"powersave", "powersave"}, map[string]string{"status": "active", "turbo": "true", "scaling_governor": "powersave"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, pstateAttributes(tt.status, tt.noTurbo, tt.turboOK, tt.governors)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPCIAttrValue(t *testing.T) {
	for _, tt := range []struct{ name, raw, want string }{
		{"class", "0x030000\n", "0300"},
		{"class", "0x0604\n", "0604"},
		{"vendor", "0x8086\n", "8086"},
		{"sriov_totalvfs", "8\n", "8"},
	} {
		if got := pciAttrValue(tt.name, tt.raw); got != tt.want {
			t.Errorf("pciAttrValue(%q, %q) = %q, want %q", tt.name, tt.raw, got, tt.want)
		}
	}
}

func TestUSBClassZeroDevicesSplitPerInterface(t *testing.T) {
	got := usbInterfaceInstances(map[string]string{"class": "00", "vendor": "046d"}, []string{"03", "03", "ff"})
	want := []map[string]string{
		{"class": "03", "vendor": "046d"}, {"class": "03", "vendor": "046d"}, {"class": "ff", "vendor": "046d"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestResctrlMountFromMountinfo(t *testing.T) {
	for raw, want := range map[string]string{
		"40 22 0:35 / /sys/fs/resctrl rw - resctrl resctrl rw\n": "/sys/fs/resctrl",
		"22 1 8:1 / / rw shared:1 - ext4 /dev/sda1 rw\n":         "",
	} {
		if got := resctrlMount(raw); got != want {
			t.Errorf("resctrlMount(%q) = %q, want %q", raw, got, want)
		}
	}
}
