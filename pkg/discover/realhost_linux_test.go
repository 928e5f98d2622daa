package discover

import (
	"bufio"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestDiscoverRealHostAgreesWithTheMachine(t *testing.T) {
	nf, warnings, err := Discover(context.Background(), Options{HostRoot: "/", NodeName: "this-host", FeaturesDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		t.Logf("warning: %s", w)
	}
	f := nf.Spec.Features
	t.Run("kernel-release-is-uname", func(t *testing.T) {
		var u syscall.Utsname
		if err := syscall.Uname(&u); err != nil {
			t.Skip(err)
		}
		want := parseKernelVersion(utsString(u.Release[:]))["full"]
		if got := f.Attributes["kernel.version"].Elements["full"]; got != want {
			t.Errorf("kernel.version.full = %q, uname -r gives %q", got, want)
		}
	})
	t.Run("os-release-id", func(t *testing.T) {
		raw, err := os.ReadFile("/etc/os-release")
		if err != nil {
			t.Skip(err)
		}
		want := ""
		for _, l := range strings.Split(string(raw), "\n") {
			if v, ok := strings.CutPrefix(l, "ID="); ok {
				want = strings.Trim(strings.TrimSpace(v), `"'`)
			}
		}
		if got := f.Attributes["system.osrelease"].Elements["ID"]; got != want {
			t.Errorf("ID = %q, /etc/os-release says %q", got, want)
		}
	})
	t.Run("network-interfaces-are-sys-class-net", func(t *testing.T) {
		ents, err := os.ReadDir("/sys/class/net")
		if err != nil {
			t.Skip(err)
		}
		want := 0
		for _, e := range ents {
			if e.Name() != "bonding_masters" {
				want++
			}
		}
		got := len(f.Instances["network.device"].Elements) + len(f.Instances["network.virtual"].Elements)
		if got != want {
			t.Errorf("%d interfaces discovered, /sys/class/net has %d", got, want)
		}
		for _, i := range f.Instances["network.virtual"].Elements {
			if i.Attributes["name"] == "lo" && i.Attributes["mtu"] == "" {
				t.Error("lo has no mtu")
			}
		}
	})
	t.Run("pci-device-count", func(t *testing.T) {
		ents, err := os.ReadDir("/sys/bus/pci/devices")
		if err != nil {
			t.Skip(err)
		}
		if got := len(f.Instances["pci.device"].Elements); got != len(ents) {
			t.Errorf("%d PCI devices discovered, /sys/bus/pci/devices has %d", got, len(ents))
		}
	})
	t.Run("cpuid-flags-agree-with-cpuinfo", func(t *testing.T) {
		flags := cpuinfoFlags(t)
		for cpuinfo, cpuid := range map[string]string{"avx2": "AVX2", "sse4_2": "SSE42", "aes": "AESNI", "avx512f": "AVX512F"} {
			_, discovered := f.Flags["cpu.cpuid"].Elements[cpuid]
			if flags[cpuinfo] != discovered {
				t.Errorf("/proc/cpuinfo %s=%v but cpu.cpuid %s=%v", cpuinfo, flags[cpuinfo], cpuid, discovered)
			}
		}
	})
}

// utsString converts a NUL-terminated utsname field.
func utsString[T int8 | uint8](b []T) string {
	var s strings.Builder
	for _, c := range b {
		if c == 0 {
			break
		}
		s.WriteByte(byte(c))
	}
	return s.String()
}

// cpuinfoFlags returns the flags of the first processor of /proc/cpuinfo.
func cpuinfoFlags(t *testing.T) map[string]bool {
	t.Helper()
	fh, err := os.Open("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	defer fh.Close()
	s := bufio.NewScanner(fh)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "flags" {
			out := map[string]bool{}
			for _, f := range strings.Fields(v) {
				out[f] = true
			}
			return out
		}
	}
	t.Skip("no flags line in /proc/cpuinfo (not x86?)")
	return nil
}
