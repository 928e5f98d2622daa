package discover

import (
	"bufio"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// hypervisor returns cpu.model's hypervisor value: the s390x "Control
// Program" of /proc/sysinfo, else the CPUID hypervisor vendor, else "none".
func hypervisor(info CPUInfo, sysinfo string) string {
	if hv, ok := sysinfoHypervisor(sysinfo); ok {
		return hv
	}
	if !info.VM {
		return "none"
	}
	if info.HypervisorVendor != "" {
		return strings.ToLower(info.HypervisorVendor)
	}
	if clean := sanitizeValue(info.HypervisorVendorString); clean != "" {
		return clean
	}
	return "unknown"
}

// sanitizeValue replaces runs of characters not allowed in label values by "_".
func sanitizeValue(s string) string {
	return regexp.MustCompile(`[^-A-Za-z0-9_.]+`).ReplaceAllString(s, "_")
}

// sysinfoHypervisor extracts the "Control Program:" of /proc/sysinfo.
func sysinfoHypervisor(sysinfo string) (string, bool) {
	for _, line := range strings.Split(sysinfo, "\n") {
		if !strings.Contains(line, "Control Program:") {
			continue
		}
		_, v, _ := strings.Cut(line, ":")
		if v = strings.TrimSpace(v); v != "" {
			return sanitizeValue(v), true
		}
		return "", false
	}
	return "", false
}

// parseCstate turns intel_idle's max_cstate into cpu.cstate.
func parseCstate(maxCstate string) (map[string]string, error) {
	n, err := strconv.Atoi(strings.TrimSpace(maxCstate))
	if err != nil {
		return nil, fmt.Errorf("non-integer value of cstates: %w", err)
	}
	return map[string]string{"enabled": strconv.FormatBool(n > 0)}, nil
}

// pstateAttributes builds cpu.pstate from the intel_pstate status, the
// no_turbo file (when readable) and the governors of active policies.
func pstateAttributes(status string, noTurbo []byte, turboOK bool, governors []string) map[string]string {
	if status == "off" {
		return nil
	}
	m := map[string]string{"status": status}
	if turboOK && len(noTurbo) > 0 {
		m["turbo"] = strconv.FormatBool(noTurbo[0] == '0')
	}
	if status != "active" {
		return m
	}
	if g := commonGovernor(governors); g != "" {
		m["scaling_governor"] = g
	}
	return m
}

// commonGovernor returns the governor shared by all policies, or "".
func commonGovernor(governors []string) string {
	g := ""
	for _, cur := range governors {
		if g != "" && g != cur {
			return ""
		}
		g = cur
	}
	return g
}

// CPUID bits nfd-worker tests for Intel RDT.
const (
	extFeaturesEBXRDTM    = 1 << 12
	extFeaturesEBXRDTA    = 1 << 15
	rdtMonEDXL3           = 1 << 1
	rdtL3MonEDXOccupancy  = 1 << 0
	rdtL3MonEDXTotalBW    = 1 << 1
	rdtL3MonEDXLocalBW    = 1 << 2
	rdtAllocEBXL3         = 1 << 1
	rdtAllocEBXL2         = 1 << 2
	rdtAllocEBXMemBW      = 1 << 3
	rdtMonL3SubLeaf       = 1
	notAvailable          = -1
	defaultMiscCapability = notAvailable
)

// rdtAttributes decodes Intel RDT support from raw CPUID leaves; numClosID
// is the L3 CLOS ID count (-1 when resctrl is not mounted).
func rdtAttributes(leaves map[Leaf]Regs, numClosID int64) map[string]string {
	ext := leaves[Leaf{EAX: leafExtFeatures}]
	mon := leaves[Leaf{EAX: leafRDTMonitoring}]
	l3 := leaves[Leaf{EAX: leafRDTMonitoring, ECX: rdtMonL3SubLeaf}]
	alloc := leaves[Leaf{EAX: leafRDTAllocation}]
	m := map[string]string{}
	if ext.EBX&extFeaturesEBXRDTM != 0 && mon.EDX&rdtMonEDXL3 != 0 {
		m["RDTMON"] = "true"
		setIf(m, "RDTCMT", l3.EDX&rdtL3MonEDXOccupancy != 0)
		setIf(m, "RDTMBM", l3.EDX&rdtL3MonEDXTotalBW != 0 && l3.EDX&rdtL3MonEDXLocalBW != 0)
	}
	if ext.EBX&extFeaturesEBXRDTA != 0 {
		if alloc.EBX&rdtAllocEBXL3 != 0 {
			m["RDTL3CA"] = "true"
			if numClosID > notAvailable {
				m["RDTL3CA_NUM_CLOSID"] = strconv.FormatInt(numClosID, 10)
			}
		}
		setIf(m, "RDTL2CA", alloc.EBX&rdtAllocEBXL2 != 0)
		setIf(m, "RDTMBA", alloc.EBX&rdtAllocEBXMemBW != 0)
	}
	return m
}

// setIf sets m[k] = "true" when cond holds.
func setIf(m map[string]string, k string, cond bool) {
	if cond {
		m[k] = "true"
	}
}

// resctrlMount returns the mount point of the resctrl file system listed
// in a /proc/self/mountinfo, or "".
func resctrlMount(mountinfo string) string {
	s := bufio.NewScanner(strings.NewReader(mountinfo))
	for s.Scan() {
		fields := strings.Fields(s.Text())
		for i, f := range fields {
			if f == "-" && i+1 < len(fields) && fields[i+1] == "resctrl" && len(fields) > 4 {
				return fields[4]
			}
		}
	}
	return ""
}

// securityInput is what cpu.security is computed from.
type securityInput struct {
	sgxEPC                            uint64
	tdxParam                          []byte
	tdxGuest                          bool
	sevParam, sevESParam, sevSNPParam []byte
	miscCapacity                      []byte
}

// securityAttributes builds cpu.security.
func securityAttributes(in securityInput) map[string]string {
	m := map[string]string{}
	if in.sgxEPC > 0 {
		m["sgx.enabled"] = "true"
		m["sgx.epc"] = strconv.FormatUint(in.sgxEPC, 10)
	}
	if string(in.tdxParam) == "Y\n" {
		m["tdx.enabled"] = "true"
		setCount(m, "tdx.total_keys", miscCapacity(in.miscCapacity, "tdx"))
	}
	setIf(m, "tdx.protected", in.tdxGuest)
	if kvmParamEnabled(in.sevParam) {
		m["sev.enabled"] = "true"
		setCount(m, "sev.asids", miscCapacity(in.miscCapacity, "sev"))
	}
	if kvmParamEnabled(in.sevESParam) {
		m["sev.es.enabled"] = "true"
		setCount(m, "sev.encrypted_state_ids", miscCapacity(in.miscCapacity, "sev_es"))
	}
	setIf(m, "sev.snp.enabled", kvmParamEnabled(in.sevSNPParam))
	return m
}

// setCount sets m[k] to n unless n is -1 (not available).
func setCount(m map[string]string, k string, n int64) {
	if n > notAvailable {
		m[k] = strconv.FormatInt(n, 10)
	}
}

// kvmParamEnabled reports whether a kvm module boolean parameter is on.
func kvmParamEnabled(b []byte) bool {
	return len(b) > 0 && (b[0] == '1' || b[0] == 'Y')
}

// miscCapacity returns the capacity of resource in a cgroup misc.capacity
// file: the first line starting with resource (as nfd-worker matches it), or
// -1.
func miscCapacity(data []byte, resource string) int64 {
	if data == nil {
		return defaultMiscCapability
	}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, resource) {
			continue
		}
		fields := strings.Split(line, " ")
		if len(fields) < 2 {
			return notAvailable
		}
		n, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil {
			return notAvailable
		}
		return n
	}
	return notAvailable
}

// sstBF reports SST-BF: some CPU's base frequency (kHz) exceeds the nominal
// CPUID base frequency (MHz).
func sstBF(nominalMHz int, baseFreqs []string) (bool, error) {
	for _, s := range baseFreqs {
		f, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return false, fmt.Errorf("non-integer base frequency %q: %w", s, err)
		}
		if nominalMHz == 0 {
			return false, errors.New("failed to determine if SST-BF is enabled: nominal base frequency info is missing")
		}
		if f/1000 > nominalMHz {
			return true, nil
		}
	}
	return false, nil
}

// topologyAttributes builds cpu.topology from each CPU's thread siblings
// list and physical package id.
func topologyAttributes(siblings, packages []string) map[string]string {
	ht := false
	for _, s := range siblings {
		if strings.ContainsAny(s, ",-") {
			ht = true
		}
	}
	ids := map[string]bool{}
	for _, p := range packages {
		ids[strings.TrimSpace(p)] = true
	}
	return map[string]string{
		"hardware_multithreading": strconv.FormatBool(ht),
		"socket_count":            strconv.Itoa(len(ids)),
	}
}
