package discover

import (
	"runtime"
	"strconv"

	"github.com/klauspost/cpuid/v2"
)

// CPUIDProvider reports what the CPUID instruction says about the processor.
// Discovery cannot read it from a host tree, so tests inject a fake.
type CPUIDProvider interface {
	// CPUID returns the processor information.
	CPUID() CPUInfo
}

// CPUIDFunc adapts a function to a CPUIDProvider.
type CPUIDFunc func() CPUInfo

// CPUID calls f.
func (f CPUIDFunc) CPUID() CPUInfo { return f() }

// Leaf selects one CPUID leaf and sub-leaf (EAX and ECX inputs).
type Leaf struct {
	EAX, ECX uint32
}

// Regs holds the registers one CPUID leaf returns.
type Regs struct {
	EAX, EBX, ECX, EDX uint32
}

// The raw CPUID leaves nfd-worker reads besides klauspost/cpuid's summary.
const (
	leafExtFeatures   = 0x07 // structured extended features (RDT-M, RDT-A bits)
	leafRDTMonitoring = 0x0f // RDT monitoring; sub-leaf 1 is L3 monitoring
	leafRDTAllocation = 0x10 // RDT allocation
	leafFrequencyInfo = 0x16 // processor frequency information
)

// rawLeaves lists the leaves HostCPUID collects.
func rawLeaves() []Leaf {
	return []Leaf{
		{EAX: leafExtFeatures}, {EAX: leafRDTMonitoring}, {EAX: leafRDTMonitoring, ECX: 1},
		{EAX: leafRDTAllocation}, {EAX: leafFrequencyInfo},
	}
}

// CPUInfo is the processor information the cpu source needs.
type CPUInfo struct {
	// Flags are the CPUID feature names (klauspost/cpuid FeatureSet) plus
	// X86_64_V1..Vn for the x86-64 microarchitecture level.
	Flags []string
	// Attributes become the cpu.cpuid attribute feature (AVX10_VERSION); nil
	// means the feature is not emitted at all (non-x86 hosts).
	Attributes map[string]string
	// VendorID is the vendor name ("Intel", "AMD", ...).
	VendorID string
	// Family and Model are the processor family and model numbers.
	Family, Model int
	// VM is true when the CPU reports running under a hypervisor.
	VM bool
	// HypervisorVendor is the known hypervisor vendor name ("KVM",
	// "MSVM"...), empty when unknown.
	HypervisorVendor string
	// HypervisorVendorString is the raw hypervisor vendor string.
	HypervisorVendorString string
	// SGXEPCSize is the summed size of the SGX EPC sections (0 without SGX).
	SGXEPCSize uint64
	// TDXGuest is true inside an Intel TDX trust domain.
	TDXGuest bool
	// Leaves holds raw CPUID leaves (RDT and frequency information).
	Leaves map[Leaf]Regs
}

// HostCPUID returns the provider that executes CPUID on this machine via
// github.com/klauspost/cpuid/v2 (and raw CPUID for RDT and SST leaves).
func HostCPUID() CPUIDProvider { return CPUIDFunc(hostCPUInfo) }

// hostCPUInfo reads the processor information of this machine.
func hostCPUInfo() CPUInfo {
	c := cpuid.CPU
	info := CPUInfo{
		Flags:                  append(c.FeatureSet(), x86Levels(c.X64Level())...),
		VendorID:               c.VendorID.String(),
		Family:                 c.Family,
		Model:                  c.Model,
		VM:                     c.VM(),
		HypervisorVendorString: c.HypervisorVendorString,
		TDXGuest:               c.Has(cpuid.TDX_GUEST),
		Leaves:                 map[Leaf]Regs{},
	}
	if c.HypervisorVendorID != cpuid.VendorUnknown {
		info.HypervisorVendor = c.HypervisorVendorID.String()
	}
	if c.SGX.Available {
		for _, s := range c.SGX.EPCSections {
			info.SGXEPCSize += s.EPCSize
		}
	}
	if runtime.GOARCH == "amd64" {
		info.Attributes = map[string]string{}
		if c.AVX10Level > 0 {
			info.Attributes["AVX10_VERSION"] = strconv.Itoa(int(c.AVX10Level))
		}
		for _, l := range rawLeaves() {
			a, b, cx, d := cpuidLeaf(l.EAX, l.ECX)
			info.Leaves[l] = Regs{EAX: a, EBX: b, ECX: cx, EDX: d}
		}
	}
	return info
}

// x86Levels returns the flags X86_64_V1..X86_64_V<level>.
func x86Levels(level int) []string {
	out := make([]string, 0, level)
	for i := 1; i <= level; i++ {
		out = append(out, "X86_64_V"+strconv.Itoa(i))
	}
	return out
}
