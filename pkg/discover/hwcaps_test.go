package discover

import (
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// auxv encodes tag/value pairs as a 64-bit little-endian auxiliary vector.
func auxv(pairs ...uint64) []byte {
	b := make([]byte, 8*len(pairs))
	for i, v := range pairs {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return b
}

func TestParseAuxvFindsBothHWCapWords(t *testing.T) {
	tests := []struct {
		name           string
		raw            []byte
		wantCap, want2 uint64
		wantOK         bool
	}{
		{"both-words", auxv(6, 4096, atHWCap, 0x88b, atHWCap2, 0x3, 0, 0), 0x88b, 0x3, true},
		{"no-hwcap2", auxv(atHWCap, 0xff, 0, 0), 0xff, 0, true},
		{"no-hwcap", auxv(atHWCap2, 1, 0, 0), 0, 1, false},
		{"truncated-entry-ignored", append(auxv(atHWCap, 3), 1, 2, 3), 3, 0, true},
		{"empty", nil, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, c2, ok := parseAuxv(tt.raw)
			if c != tt.wantCap || c2 != tt.want2 || ok != tt.wantOK {
				t.Errorf("parseAuxv = %#x, %#x, %v; want %#x, %#x, %v", c, c2, ok, tt.wantCap, tt.want2, tt.wantOK)
			}
		})
	}
}

func TestArm64FlagsNameKnownBitsOnly(t *testing.T) {
	got := arm64Flags(1<<0|1<<11|1<<31|1<<40, 1<<1|1<<33|1<<60)
	want := []string{"FP", "CPUID", "PACG", "SVE2", "SVEEBF16"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestHWCapsFromCPUInfoNamesRoundTrip(t *testing.T) {
	c, c2 := hwcapsFromNames(strings.Fields("fp asimd cpuid sve2 smei16i64 notahwcap"))
	if diff := cmp.Diff([]string{"FP", "ASIMD", "CPUID", "SVE2", "SMEI16I64"}, arm64Flags(c, c2)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDecodeMIDRLikeKlauspostCPUID(t *testing.T) {
	tests := []struct {
		name          string
		midr          uint64
		vendor        string
		family, model int
	}{
		{"neoverse-n1", 0x413fd0c1, "ARM", 0x3f, 0xd0c1},
		{"ampere-one", 0xc00fac30, "Ampere", 0x0f, 0xac30},
		{"unknown-implementer", 0x610f0220, "VendorUnknown", 0x0f, 0x0220},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, f, m := decodeMIDR(tt.midr)
			if v != tt.vendor || f != tt.family || m != tt.model {
				t.Errorf("decodeMIDR(%#x) = %q, %d, %d; want %q, %d, %d", tt.midr, v, f, m, tt.vendor, tt.family, tt.model)
			}
		})
	}
}

func TestMIDRFromCPUInfoAddsTheArchitectureField(t *testing.T) {
	cpuinfo := "processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\nprocessor\t: 1\nCPU implementer\t: 0x51\n"
	got, err := midrFromCPUInfo(cpuinfo)
	if err != nil || got != 0x413fd0c1 {
		t.Errorf("midrFromCPUInfo = %#x, %v; want 0x413fd0c1", got, err)
	}
	if _, err := midrFromCPUInfo("CPU implementer : 0x41\n"); err == nil || !strings.Contains(err.Error(), "CPU variant") {
		t.Errorf("missing variant: error = %v", err)
	}
}

func TestReadArm64CPUFromTheHostTree(t *testing.T) {
	cpuinfo := "Features\t: fp asimd cpuid\nCPU implementer\t: 0x41\nCPU variant\t: 0x1\nCPU part\t: 0xd40\nCPU revision\t: 1\n"
	tests := []struct {
		name      string
		files     map[string]string
		want      CPUInfo
		wantWarns []string
	}{
		{"auxv-wins-over-cpuinfo", map[string]string{"proc/self/auxv": string(auxv(atHWCap, 1<<3|arm64HWCapCPUID, 0, 0)), "proc/cpuinfo": cpuinfo},
			CPUInfo{Flags: []string{"AES", "CPUID"}, VendorID: "ARM", Family: 0x1f, Model: 0xd401}, nil},
		{"cpuinfo-fallback", map[string]string{"proc/cpuinfo": cpuinfo},
			CPUInfo{Flags: []string{"FP", "ASIMD", "CPUID"}, VendorID: "ARM", Family: 0x1f, Model: 0xd401}, nil},
		{"sysfs-midr-wins", map[string]string{"proc/cpuinfo": cpuinfo, "sys/devices/system/cpu/cpu0/regs/identification/midr_el1": "0x00000000c00fac30\n"},
			CPUInfo{Flags: []string{"FP", "ASIMD", "CPUID"}, VendorID: "Ampere", Family: 0x0f, Model: 0xac30}, nil},
		{"no-cpuid-hwcap-no-midr", map[string]string{"proc/cpuinfo": "Features : fp asimd\nCPU implementer : 0x41\n"},
			CPUInfo{Flags: []string{"FP", "ASIMD"}, VendorID: "VendorUnknown"}, nil},
		{"nothing-readable", map[string]string{"proc/.keep": ""},
			CPUInfo{VendorID: "VendorUnknown"}, []string{"cpu: cpuid: no hardware capabilities"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for p, content := range tt.files {
				mustWrite(t, filepath.Join(root, p), content)
			}
			c := newCollector("cpu", false)
			got := readArm64CPU(newHost(root), c)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(c.warnings) != len(tt.wantWarns) {
				t.Fatalf("warnings = %v, want %v", c.warnings, tt.wantWarns)
			}
			for i, w := range tt.wantWarns {
				if !strings.HasPrefix(c.warnings[i].Describe(), w) {
					t.Errorf("warning %q does not start with %q", c.warnings[i], w)
				}
			}
		})
	}
}
