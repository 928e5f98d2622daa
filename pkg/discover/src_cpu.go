package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strconv"
)

// discoverCPU is the cpu source. On amd64, CPUID data (cpu.cpuid,
// cpu.model, cpu.rdt, SGX/TDX-guest parts of cpu.security, the nominal
// frequency of cpu.sst) comes from the CPUIDProvider and the rest is read
// from sysfs and procfs under the host root: devices/system/cpu (cstate,
// pstate), module/*/parameters (cstate, tdx, sev), fs/cgroup/misc.capacity
// (key and ASID counts), bus/cpu/devices (topology, sst), proc/sysinfo and
// proc/self/mountinfo (hypervisor, resctrl). On arm64 everything comes from
// the host root (readArm64CPU) and, as in nfd-worker's stubs, cpu.cstate,
// cpu.pstate, cpu.rdt, cpu.security and cpu.sst are empty. cpu.coprocessor
// is empty on both (it is a ppc64le feature).
func discoverCPU(e *env, c *collector) {
	info, ok := archCPUInfo(e, c)
	if !ok {
		return
	}
	c.flags("cpuid", e.rel.cpuidFlags(info.Flags))
	if info.Attributes != nil {
		c.attrs("cpuid", info.Attributes)
	}
	c.attrs("model", cpuModel(info, e.host, e.rel))
	if e.arch == "amd64" {
		discoverX86(e, c, info)
	} else {
		for _, n := range []string{"cstate", "pstate", "rdt", "security", "sst"} {
			c.attrs(n, nil)
		}
	}
	topo, err := readTopology(e.host)
	if err != nil {
		c.warn("topology: %v", err)
	}
	c.attrs("topology", topo)
	c.attrs("coprocessor", nil)
}

// archCPUInfo returns the processor information of the modelled
// architecture. CPUID data of an amd64 host exists only when nfd-fn runs on
// amd64 (or a CPUIDProvider is given); otherwise the cpu source is dropped.
func archCPUInfo(e *env, c *collector) (CPUInfo, bool) {
	if e.arch == "arm64" {
		return readArm64CPU(e.host, c), true
	}
	if e.hostCPUID && runtime.GOARCH != "amd64" {
		c.warn("CPUID data of an amd64 host is only available when nfd-fn runs on amd64 (this is %s)", runtime.GOARCH)
		return CPUInfo{}, false
	}
	return e.cpuInfo(), true
}

// discoverX86 sets the features nfd-worker reads only on amd64: cstate,
// pstate, rdt, security and sst.
func discoverX86(e *env, c *collector, info CPUInfo) {
	if cstate, err := readCstate(e.host); err != nil {
		c.warn("cstate: %v", err)
	} else {
		c.attrs("cstate", cstate)
	}
	pstate, err := readPstate(e.host)
	if err != nil {
		c.warn("pstate: %v", err)
	}
	c.attrs("pstate", pstate)
	c.attrs("rdt", rdtAttributes(info.Leaves, readNumClosID(e.host)))
	c.attrs("security", readSecurity(e.host, info))
	sst, err := readSST(e.host, info.Leaves[Leaf{EAX: leafFrequencyInfo}].EAX)
	if err != nil {
		c.warn("sst: %v", err)
	}
	c.attrs("sst", sst)
}

// cpuModel returns the cpu.model attributes, the hypervisor as the release
// finds it.
func cpuModel(info CPUInfo, h host, rel release) map[string]string {
	m := map[string]string{
		"vendor_id": info.VendorID,
		"family":    strconv.Itoa(info.Family),
		"id":        strconv.Itoa(info.Model),
	}
	sysinfo, err := h.readFile("proc/sysinfo")
	if err != nil {
		sysinfo = nil
	}
	if hv := rel.hypervisorOf(info, sysinfo); hv != "" {
		m["hypervisor"] = hv
	}
	return m
}

// readCstate reports whether C-states are enabled via intel_idle. An empty
// map (no cpuidle, another driver) is a result; an error drops the feature.
func readCstate(h host) (map[string]string, error) {
	if _, err := h.stat("sys/devices/system/cpu"); err != nil {
		return nil, fmt.Errorf("unable to detect cstate status: %w", err)
	}
	if ok, _ := h.exists("sys/devices/system/cpu/cpuidle"); !ok {
		return map[string]string{}, nil
	}
	driver, err := h.readTrim("sys/devices/system/cpu/cpuidle/current_driver")
	if err != nil {
		return nil, err
	}
	if driver != "intel_idle" {
		return map[string]string{}, nil
	}
	maxCstate, err := h.readTrim("sys/module/intel_idle/parameters/max_cstate")
	if err != nil {
		return nil, err
	}
	return parseCstate(maxCstate)
}

// readPstate reads the intel_pstate driver state.
func readPstate(h host) (map[string]string, error) {
	const base = "sys/devices/system/cpu"
	if _, err := h.stat(base); err != nil {
		return nil, err
	}
	if ok, _ := h.exists(base + "/intel_pstate"); !ok {
		return nil, nil
	}
	status, err := h.readTrim(base + "/intel_pstate/status")
	if err != nil {
		return nil, err
	}
	noTurbo, turboErr := h.readFile(base + "/intel_pstate/no_turbo")
	var governors []string
	if status == "active" {
		governors = readGovernors(h, base+"/cpufreq")
	}
	return pstateAttributes(status, noTurbo, turboErr == nil, governors), nil
}

// readGovernors returns the scaling governor of each cpufreq policy that has
// CPUs; unreadable policies are skipped as nfd-worker does.
func readGovernors(h host, dir string) []string {
	policies, err := h.names(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range policies {
		cpus, err := h.readTrim(dir + "/" + p + "/affected_cpus")
		if err != nil || cpus == "" {
			continue
		}
		g, err := h.readTrim(dir + "/" + p + "/scaling_governor")
		if err != nil {
			continue
		}
		out = append(out, g)
	}
	return out
}

// readNumClosID returns the L3 CLOS ID count minus the default group, or -1.
func readNumClosID(h host) int64 {
	mountinfo, err := h.readFile("proc/self/mountinfo")
	if err != nil {
		return -1
	}
	mnt := resctrlMount(string(mountinfo))
	if mnt == "" {
		return -1
	}
	s, err := h.readTrim(mnt + "/info/L3/num_closids")
	if err != nil {
		return -1
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return n - 1
}

// readSecurity returns the cpu.security attributes.
func readSecurity(h host, info CPUInfo) map[string]string {
	tdx, _ := h.readFile("sys/module/kvm_intel/parameters/tdx")
	sev := func(p string) []byte {
		b, _ := h.readFile("sys/module/kvm_amd/parameters/" + p)
		return b
	}
	return securityAttributes(securityInput{
		sgxEPC:       info.SGXEPCSize,
		tdxParam:     tdx,
		tdxGuest:     info.TDXGuest,
		sevParam:     sev("sev"),
		sevESParam:   sev("sev_es"),
		sevSNPParam:  sev("sev_snp"),
		miscCapacity: readMiscCapacity(h),
	})
}

// readMiscCapacity returns the cgroup misc.capacity file, nil if absent.
func readMiscCapacity(h host) []byte {
	for _, p := range []string{"sys/fs/cgroup/misc.capacity", "sys/fs/cgroup/misc/misc.capacity"} {
		if b, err := h.readFile(p); err == nil {
			return b
		}
	}
	return nil
}

// readSST detects Intel SST-BF from the per-CPU base frequencies.
func readSST(h host, nominalMHz uint32) (map[string]string, error) {
	cpus, err := h.names("sys/bus/cpu/devices")
	if err != nil {
		return map[string]string{}, err
	}
	var freqs []string
	for _, cpu := range cpus {
		f, err := h.readTrim("sys/bus/cpu/devices/" + cpu + "/cpufreq/base_frequency")
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return map[string]string{}, err
		}
		freqs = append(freqs, f)
	}
	bf, err := sstBF(int(nominalMHz), freqs)
	if err != nil {
		return map[string]string{}, err
	}
	if !bf {
		return map[string]string{}, nil
	}
	return map[string]string{"bf.enabled": "true"}, nil
}

// readTopology reads thread siblings and package ids of every CPU. Any
// unreadable file empties the feature, as in nfd-worker.
func readTopology(h host) (map[string]string, error) {
	cpus, err := h.names("sys/bus/cpu/devices")
	if err != nil {
		return map[string]string{}, err
	}
	var siblings, packages []string
	for _, cpu := range cpus {
		dir := "sys/bus/cpu/devices/" + cpu + "/topology/"
		s, err := h.readFile(dir + "thread_siblings_list")
		if err != nil {
			return map[string]string{}, err
		}
		p, err := h.readTrim(dir + "physical_package_id")
		if err != nil {
			return map[string]string{}, err
		}
		siblings, packages = append(siblings, string(s)), append(packages, p)
	}
	return topologyAttributes(siblings, packages), nil
}
