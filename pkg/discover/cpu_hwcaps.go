package discover

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Auxiliary vector entries that carry the arm64 hardware capabilities.
const (
	atHWCap  = 16
	atHWCap2 = 26
	// arm64HWCapCPUID is the HWCAP_CPUID bit: the kernel emulates reads
	// of the ID registers, so klauspost/cpuid reads MIDR_EL1.
	arm64HWCapCPUID = 1 << 11
	// midrArchitecture is MIDR_EL1's architecture field on arm64 (the ID
	// registers scheme), which /proc/cpuinfo does not print.
	midrArchitecture = 0xf
)

// arm64HWCapNames are the cpu.cpuid flag names nfd-worker v0.19 gives the
// AT_HWCAP bits on arm64, by bit number (the kernel's hwcap names in upper
// case; /proc/cpuinfo prints them in lower case).
func arm64HWCapNames() []string {
	return []string{
		"FP", "ASIMD", "EVTSTRM", "AES", "PMULL", "SHA1", "SHA2", "CRC32",
		"ATOMICS", "FPHP", "ASIMDHP", "CPUID", "ASIMDRDM", "JSCVT", "FCMA", "LRCPC",
		"DCPOP", "SHA3", "SM3", "SM4", "ASIMDDP", "SHA512", "SVE", "ASIMDFHM",
		"DIT", "USCAT", "ILRCPC", "FLAGM", "SSBS", "SB", "PACA", "PACG",
	}
}

// arm64HWCap2Names are the flag names of the AT_HWCAP2 bits, by bit number.
func arm64HWCap2Names() []string {
	return []string{
		"DCPODP", "SVE2", "SVEAES", "SVEPMULL", "SVEBITPERM", "SVESHA3", "SVESM4", "FLAGM2",
		"FRINT", "SVEI8MM", "SVEF32MM", "SVEF64MM", "SVEBF16", "I8MM", "BF16", "DGH",
		"RNG", "BTI", "MTE", "ECV", "AFP", "RPRES", "MTE3", "SME",
		"SMEI16I64", "SMEF64F64", "SMEI8I32", "SMEF16F32", "SMEB16F32", "SMEF32F32", "SMEFA64", "WFXT",
		"EBF16", "SVEEBF16",
	}
}

// midrVendors are the vendor names klauspost/cpuid gives MIDR_EL1
// implementer codes; others are "VendorUnknown".
func midrVendors() map[uint64]string {
	return map[uint64]string{
		0xc0: "Ampere", 0x41: "ARM", 0x42: "Broadcom", 0x43: "Cavium", 0x44: "DEC", 0x46: "Fujitsu",
		0x49: "Infineon", 0x4d: "Motorola", 0x4e: "NVIDIA", 0x50: "AMCC", 0x51: "Qualcomm",
		0x56: "Marvell", 0x69: "Intel",
	}
}

// readArm64CPU builds the processor information nfd-worker derives on
// arm64, entirely from the host root: the hwcaps (proc/self/auxv, else the
// Features line of proc/cpuinfo) and, when the CPUID hwcap is set as
// klauspost/cpuid requires, MIDR_EL1 (sysfs, else proc/cpuinfo). There is
// no hypervisor detection on arm64 and no cpu.cpuid attribute feature.
func readArm64CPU(h host, c *collector) CPUInfo {
	hwcap, hwcap2, err := readHWCaps(h)
	if err != nil {
		c.warn("cpuid: %v", err)
	}
	info := CPUInfo{Flags: arm64Flags(hwcap, hwcap2), VendorID: "VendorUnknown"}
	if hwcap&arm64HWCapCPUID == 0 {
		return info
	}
	midr, err := readMIDR(h)
	if err != nil {
		c.warn("model: %v", err)
		return info
	}
	info.VendorID, info.Family, info.Model = decodeMIDR(midr)
	return info
}

// arm64Flags names the set hwcap bits nfd-worker knows.
func arm64Flags(hwcap, hwcap2 uint64) []string {
	var out []string
	for i, n := range arm64HWCapNames() {
		if hwcap&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	for i, n := range arm64HWCap2Names() {
		if hwcap2&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// readHWCaps returns AT_HWCAP and AT_HWCAP2 from proc/self/auxv, or
// rebuilt from the Features line of proc/cpuinfo.
func readHWCaps(h host) (hwcap, hwcap2 uint64, err error) {
	auxv, auxvErr := h.readFile("proc/self/auxv")
	if auxvErr == nil {
		if hwcap, hwcap2, ok := parseAuxv(auxv); ok {
			return hwcap, hwcap2, nil
		}
		auxvErr = errors.New("proc/self/auxv has no AT_HWCAP entry")
	}
	cpuinfo, err := h.readFile("proc/cpuinfo")
	if err != nil {
		return 0, 0, fmt.Errorf("no hardware capabilities: %v; %w", auxvErr, err)
	}
	features, ok := cpuinfoField(string(cpuinfo), "Features")
	if !ok {
		return 0, 0, fmt.Errorf("no hardware capabilities: %v; proc/cpuinfo has no Features line", auxvErr)
	}
	hwcap, hwcap2 = hwcapsFromNames(strings.Fields(features))
	return hwcap, hwcap2, nil
}

// parseAuxv reads AT_HWCAP and AT_HWCAP2 from a 64-bit little-endian
// auxiliary vector; ok is false without AT_HWCAP.
func parseAuxv(b []byte) (hwcap, hwcap2 uint64, ok bool) {
	for ; len(b) >= 16; b = b[16:] {
		tag, val := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		switch tag {
		case atHWCap:
			hwcap, ok = val, true
		case atHWCap2:
			hwcap2 = val
		}
	}
	return hwcap, hwcap2, ok
}

// hwcapsFromNames sets the hwcap bits of the lower-case names /proc/cpuinfo
// prints; names nfd-worker does not know are dropped.
func hwcapsFromNames(names []string) (hwcap, hwcap2 uint64) {
	for _, n := range names {
		for i, known := range arm64HWCapNames() {
			if strings.EqualFold(n, known) {
				hwcap |= 1 << i
			}
		}
		for i, known := range arm64HWCap2Names() {
			if strings.EqualFold(n, known) {
				hwcap2 |= 1 << i
			}
		}
	}
	return hwcap, hwcap2
}

// readMIDR returns MIDR_EL1 of the first CPU from sysfs, else rebuilt from
// proc/cpuinfo.
func readMIDR(h host) (uint64, error) {
	s, sysErr := h.readTrim("sys/devices/system/cpu/cpu0/regs/identification/midr_el1")
	if sysErr == nil {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("parsing midr_el1 %q: %w", s, err)
		}
		return v, nil
	}
	cpuinfo, err := h.readFile("proc/cpuinfo")
	if err != nil {
		return 0, fmt.Errorf("no main ID register: %v; %w", sysErr, err)
	}
	return midrFromCPUInfo(string(cpuinfo))
}

// midrFromCPUInfo rebuilds MIDR_EL1 from the CPU implementer, variant, part
// and revision of the first processor in /proc/cpuinfo.
func midrFromCPUInfo(cpuinfo string) (uint64, error) {
	fields := []struct {
		name  string
		shift uint
	}{{"CPU implementer", 24}, {"CPU variant", 20}, {"CPU part", 4}, {"CPU revision", 0}}
	midr := uint64(midrArchitecture) << 16
	for _, f := range fields {
		s, ok := cpuinfoField(cpuinfo, f.name)
		if !ok {
			return 0, fmt.Errorf("proc/cpuinfo has no %q line", f.name)
		}
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("proc/cpuinfo %q: %w", f.name, err)
		}
		midr |= v << f.shift
	}
	return midr, nil
}

// cpuinfoField returns the value of the first "name : value" line.
func cpuinfoField(cpuinfo, name string) (string, bool) {
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// decodeMIDR returns the vendor, family and model klauspost/cpuid reports
// for a MIDR_EL1 value: the implementer's name, bits 23-16 (variant and
// architecture) and bits 15-0 (part number and revision).
func decodeMIDR(midr uint64) (vendor string, family, model int) {
	vendor, ok := midrVendors()[(midr>>24)&0xff]
	if !ok {
		vendor = "VendorUnknown"
	}
	return vendor, int(midr>>16) & 0xff, int(midr) & 0xffff
}
