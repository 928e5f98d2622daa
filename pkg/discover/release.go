package discover

import (
	"fmt"
	"slices"
	"strings"

	nfdrelease "github.com/nfd-fn/nfd-fn/pkg/release"
)

// DefaultNFDVersion is the nfd-worker release Discover reproduces when
// Options.NFDVersion is empty: the newest pkg/release knows.
var DefaultNFDVersion = nfdrelease.LatestWorker.String()

// hypervisorSource is how a release fills cpu.model's hypervisor.
type hypervisorSource int

const (
	// hypervisorNone: no hypervisor attribute (v0.17).
	hypervisorNone hypervisorSource = iota
	// hypervisorSysinfo: only from proc/sysinfo when it exists, "PR/SM"
	// unless a "Control Program:" line names another (v0.18, on every
	// architecture).
	hypervisorSysinfo
	// hypervisorCPUID: the CPUID hypervisor vendor, "none" on bare metal
	// (v0.19 on amd64 and arm64; proc/sysinfo only on s390x).
	hypervisorCPUID
)

// release is what one nfd-worker release publishes differently from the
// others: every per-release switch of discovery is here, read from
// source/ and pkg/nfd-worker of NFD at v0.17.1, v0.18.3 and v0.19.0 (no
// patch release of v0.17 or v0.18 changes what the worker publishes).
type release struct {
	// name is the minor, "v0.17".
	name string
	// hugePages: memory.hugepages (added in v0.18).
	hugePages bool
	// networkMTU: mtu in network.device and network.virtual (v0.18).
	networkMTU bool
	// hypervisor: how cpu.model's hypervisor is found (v0.18, v0.19).
	hypervisor hypervisorSource
	// kvm: kernel.kvm (v0.19).
	kvm bool
	// allDMIID: the 16 system.dmiid attributes; before v0.19 only
	// sys_vendor and product_name.
	allDMIID bool
	// microarchFlags: the X86_64_V1..V4 cpu.cpuid flags (v0.19).
	microarchFlags bool
	// unknownCPUIDFlags are x86 cpu.cpuid flags the release's
	// klauspost/cpuid does not have (v0.17 vendors v2.2.9, v0.18 v2.3.0,
	// v0.19 v2.4.0): the FeatureIDs later versions added.
	unknownCPUIDFlags []string
	// hybridCPULabels: the cpu-cpu_atom and cpu-cpu_core labels (v0.19).
	hybridCPULabels bool
	// rtKconfigPaths: usr/src/linux-rt-<release> and
	// linux-rt-headers-<release> among the kernel config paths (v0.19).
	rtKconfigPaths bool
	// publishControls: core.noPublishFeatures and core.ownerRefs exist
	// (v0.19); before, they are unknown fields nfd-worker ignores.
	publishControls bool
}

// releases lists the modelled nfd-worker releases by minor version: one
// for each line of pkg/release's table that names a worker (a test holds
// the two in step).
func releases() map[int]release {
	// x86 FeatureIDs added in klauspost/cpuid v2.3.0 and v2.4.0.
	added230 := []string{"AMXCOMPLEX", "AMXTF32", "AMXTRANSPOSE", "PMU_FIXEDCOUNTER_CYCLES", "PMU_FIXEDCOUNTER_INSTRUCTIONS",
		"PMU_FIXEDCOUNTER_REFCYCLES", "PMU_FIXEDCOUNTER_TOPDOWN_SLOTS", "SGXPQC", "SM3_X86", "SM4_X86", "TLB", "TS",
		"TSA_L1_NO", "TSA_SQ_NO", "TSA_VERW_CLEAR"}
	added240 := []string{"AVX512BMM", "FRED"}
	v17 := release{unknownCPUIDFlags: append(slices.Clone(added230), added240...)}
	v18 := v17
	v18.hugePages, v18.networkMTU, v18.hypervisor, v18.unknownCPUIDFlags = true, true, hypervisorSysinfo, added240
	v19 := v18
	v19.hypervisor, v19.unknownCPUIDFlags = hypervisorCPUID, nil
	v19.kvm, v19.allDMIID, v19.microarchFlags, v19.hybridCPULabels, v19.rtKconfigPaths, v19.publishControls = true, true, true, true, true, true
	byMinor := map[int]release{17: v17, 18: v18, 19: v19}
	for minor, r := range byMinor {
		r.name = fmt.Sprintf("v0.%d", minor)
		byMinor[minor] = r
	}
	return byMinor
}

// SupportedNFDVersions lists the values Options.NFDVersion accepts, in
// release order: any patch release of a minor whose worker is modelled
// (v0.17.x), or the one release of a minor without patches (v0.19.0).
func SupportedNFDVersions() []string {
	var out []string
	for _, l := range nfdrelease.Lines() {
		switch {
		case l.Worker == nfdrelease.Version{}:
		case l.LastPatch > 0:
			out = append(out, fmt.Sprintf("v0.%d.x", l.Minor))
		default:
			out = append(out, nfdrelease.Version{Minor: l.Minor}.String())
		}
	}
	return out
}

// resolveRelease returns the release an NFDVersion value names ("" is
// DefaultNFDVersion): any name render takes (pkg/release: v0.18.3, v0.18,
// openshift-5.0, whose worker is its engine's upstream code), and
// vMAJOR.MINOR.x for any patch release of a minor.
func resolveRelease(v string) (release, error) {
	if v == "" {
		v = DefaultNFDVersion
	}
	r, err := nfdrelease.Parse(strings.TrimSuffix(v, ".x"))
	rel, ok := releases()[r.Engine.Minor]
	if err != nil || !ok {
		return release{}, fmt.Errorf("nfd-worker release %q is not modelled (supported: %s, and OpenShift's operand as openshift-4.18 to openshift-5.0)", v, strings.Join(SupportedNFDVersions(), ", "))
	}
	return rel, nil
}

// ValidNFDVersion checks an NFDVersion value; the error lists the
// supported ones.
func ValidNFDVersion(v string) error {
	_, err := resolveRelease(v)
	return err
}

// dmiIDAttributes lists the files of sys/devices/virtual/dmi/id the
// release reads into system.dmiid.
func (r release) dmiIDAttributes() []string {
	if !r.allDMIID {
		return []string{"sys_vendor", "product_name"}
	}
	return []string{
		"bios_date", "bios_vendor", "bios_version",
		"board_asset_tag", "board_name", "board_vendor", "board_version",
		"chassis_asset_tag", "chassis_type", "chassis_vendor", "chassis_version",
		"product_family", "product_name", "product_sku", "product_version",
		"sys_vendor",
	}
}

// cpuidFlags drops the flags the release does not publish: the x86-64
// levels before v0.19 and the flags its klauspost/cpuid does not know.
func (r release) cpuidFlags(flags []string) []string {
	return slices.DeleteFunc(slices.Clone(flags), func(f string) bool {
		return (!r.microarchFlags && strings.HasPrefix(f, "X86_64_V")) || slices.Contains(r.unknownCPUIDFlags, f)
	})
}

// netAttrFiles lists the files read for a physical (device) or virtual
// network interface.
func (r release) netAttrFiles(device bool) []string {
	files := []string{"operstate", "speed"}
	if device {
		files = append(files, "device/sriov_numvfs", "device/sriov_totalvfs")
	}
	if r.networkMTU {
		files = append(files, "mtu")
	}
	return files
}

// keepKconfigPath reports whether the release looks for the kernel
// config at p.
func (r release) keepKconfigPath(p string) bool {
	return r.rtKconfigPaths || !strings.HasPrefix(p, "usr/src/linux-rt-")
}

// hypervisorOf returns cpu.model's hypervisor ("" for none) from the CPUID
// data and proc/sysinfo (nil when it does not exist).
func (r release) hypervisorOf(info CPUInfo, sysinfo []byte) string {
	switch r.hypervisor {
	case hypervisorSysinfo:
		if sysinfo == nil {
			return ""
		}
		hv := "PR/SM"
		for _, line := range strings.Split(string(sysinfo), "\n") {
			if strings.Contains(line, "Control Program:") {
				_, v, _ := strings.Cut(line, ":")
				hv = strings.TrimSpace(v)
				break
			}
		}
		return sanitizeValue(hv)
	case hypervisorCPUID:
		// v0.19 reads proc/sysinfo only when built for s390x, which
		// nfd-fn does not model: on amd64 and arm64 it is CPUID alone.
		return hypervisor(info, "")
	}
	return ""
}
