package discover

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// labelPriority orders label sources as nfd-worker does: built-in sources
// first, then custom, then local, so later ones win.
func labelPriority(name string) int {
	switch name {
	case "custom":
		return 10
	case "local":
		return 20
	}
	return 0
}

// publishableLabel prefixes a built-in label and applies nfd-worker's
// checks: a qualified name, a valid value and core.labelWhiteList. ok,
// when set, remembers the names and values already found valid.
func publishableLabel(source, key, value string, cfg workerConfig, c *collector, ok *checkedLabels) (string, bool) {
	name := key
	if source != "local" && source != "custom" && !strings.Contains(name, "/") {
		name = v1alpha1.FeatureLabelNs + "/" + source + "-" + name
	}
	if !ok.has(name, true) {
		if errs := validation.IsQualifiedName(name); len(errs) > 0 {
			c.warnQuoting("ignoring a label with an invalid name", "ignoring label with invalid name %q: %s", name, strings.Join(errs, "; "))
			return "", false
		}
		ok.add(name, true)
	}
	if !ok.has(value, false) {
		if errs := validation.IsValidLabelValue(value); len(errs) > 0 {
			c.warnQuoting("ignoring a label with an invalid value", "ignoring label %q with invalid value %q: %s", name, value, strings.Join(errs, "; "))
			return "", false
		}
		ok.add(value, false)
	}
	short := name
	if _, after, ok := strings.Cut(name, "/"); ok {
		short = after
	}
	if !cfg.labelWhiteList.MatchString(short) {
		return "", false
	}
	return name, true
}

// sourceLabels returns the unprefixed labels of one label source.
func sourceLabels(name string, e *env, f v1alpha1.Features, c *collector) map[string]string {
	switch name {
	case "cpu":
		return cpuLabels(f, e.cfg.Sources.CPU, e.host, e.rel)
	case "kernel":
		return kernelLabels(f, e.cfg.Sources.Kernel, e.legacyKconfig.get())
	case "memory":
		return memoryLabels(f)
	case "network":
		return networkLabels(f, c)
	case "pci":
		return deviceLabels(f.Instances["pci.device"].Elements, e.cfg.Sources.PCI, pciLabelAttrs(), defaultPCILabelFields(), true)
	case "usb":
		return deviceLabels(f.Instances["usb.device"].Elements, e.cfg.Sources.USB, usbLabelAttrs(), defaultUSBLabelFields(), false)
	case "storage":
		return storageLabels(f)
	case "system":
		return systemLabels(f)
	case "local":
		return maps.Clone(f.Attributes["local.label"].Elements)
	case "custom":
		return customLabels(e, f, c)
	case "fake":
		return maps.Clone(e.cfg.Sources.Fake.Labels)
	}
	c.warn("unknown label source")
	return nil
}

// prefixed copies the elements of an attribute feature as prefix+key.
func prefixed(dst map[string]string, prefix string, elems map[string]string) {
	for k, v := range elems {
		dst[prefix+k] = v
	}
}

// cpuLabels returns the cpu source's labels. As in nfd-worker v0.19
// (source/cpu/cpu.go), cpu_atom and cpu_core come from whether
// sys/sys/devices/cpu_{atom,core}/cpus can be read: the hybrid-CPU probe
// joins "sys/devices/..." to the sysfs directory, so the path it really
// reads has sys twice and never exists on a real host.
func cpuLabels(f v1alpha1.Features, cfg cpuConfig, h host, rel release) map[string]string {
	l := map[string]string{}
	for flag := range f.Flags["cpu.cpuid"].Elements {
		if cpuidUnmasked(flag, cfg) {
			l["cpuid."+flag] = "true"
		}
	}
	prefixed(l, "cpuid.", f.Attributes["cpu.cpuid"].Elements)
	prefixed(l, "model.", f.Attributes["cpu.model"].Elements)
	prefixed(l, "cstate.", f.Attributes["cpu.cstate"].Elements)
	prefixed(l, "pstate.", f.Attributes["cpu.pstate"].Elements)
	for k, v := range f.Attributes["cpu.security"].Elements {
		switch k {
		case "tdx.total_keys", "sgx.epc", "sev.encrypted_state_ids", "sev.asids":
		default:
			l["security."+k] = v
		}
	}
	prefixed(l, "power.sst_", f.Attributes["cpu.sst"].Elements)
	if v, ok := f.Attributes["cpu.topology"].Elements["hardware_multithreading"]; ok {
		l["hardware_multithreading"] = v
	}
	if v, ok := f.Attributes["cpu.coprocessor"].Elements["nx_gzip"]; ok {
		l["coprocessor.nx_gzip"] = v
	}
	for _, kind := range []string{"cpu_atom", "cpu_core"} {
		if !rel.hybridCPULabels {
			break
		}
		if _, err := h.readFile("sys/sys/devices/" + kind + "/cpus"); err == nil {
			l[kind] = "true"
		}
	}
	return l
}

// cpuidUnmasked applies the cpuid attribute whitelist or blacklist.
func cpuidUnmasked(flag string, cfg cpuConfig) bool {
	if len(cfg.Cpuid.AttributeWhitelist) > 0 {
		return contains(cfg.Cpuid.AttributeWhitelist, flag)
	}
	return !contains(cfg.Cpuid.AttributeBlacklist, flag)
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// kernelLabels returns the kernel source's labels.
func kernelLabels(f v1alpha1.Features, cfg kernelConfig, legacy map[string]string) map[string]string {
	l := map[string]string{}
	prefixed(l, "version.", f.Attributes["kernel.version"].Elements)
	for _, opt := range cfg.ConfigOpts {
		if v, ok := legacy[opt]; ok {
			l["config."+opt] = v
		}
	}
	if f.Attributes["kernel.selinux"].Elements["enabled"] == "true" {
		l["selinux.enabled"] = "true"
	}
	return l
}

// memoryLabels returns the memory source's labels.
func memoryLabels(f v1alpha1.Features) map[string]string {
	l := map[string]string{}
	if f.Attributes["memory.numa"].Elements["is_numa"] == "true" {
		l["numa"] = "true"
	}
	if f.Attributes["memory.swap"].Elements["enabled"] == "true" {
		l["swap"] = "true"
	}
	nv := f.Instances["memory.nv"].Elements
	if len(nv) > 0 {
		l["nv.present"] = "true"
	}
	for _, d := range nv {
		if d.Attributes["devtype"] == "nd_dax" {
			l["nv.dax"] = "true"
		}
	}
	return l
}

// networkLabels returns the network source's SR-IOV labels.
func networkLabels(f v1alpha1.Features, c *collector) map[string]string {
	l := map[string]string{}
	for _, d := range f.Instances["network.device"].Elements {
		for _, al := range [][2]string{{"sriov_totalvfs", "sriov.capable"}, {"sriov_numvfs", "sriov.configured"}} {
			attr, label := al[0], al[1]
			v, ok := d.Attributes[attr]
			if !ok {
				continue
			}
			var n int
			if _, err := fmt.Sscanf(v, "%d", &n); err != nil {
				c.warn("failed to parse %s of %s: %v", attr, d.Attributes["name"], err)
				continue
			}
			if n > 0 {
				l[label] = "true"
			}
		}
	}
	return l
}

// pciLabelAttrs are the PCI attributes a label name may be built from, in
// the order they are joined.
func pciLabelAttrs() []string { return pciMandatoryAttrs() }

// usbLabelAttrs are the USB attributes a label name may be built from, in
// the order they are joined.
func usbLabelAttrs() []string { return []string{"class", "vendor", "device", "serial"} }

// defaultPCILabelFields is nfd-worker's default sources.pci.deviceLabelFields.
func defaultPCILabelFields() []string { return []string{"class", "vendor"} }

// defaultUSBLabelFields is nfd-worker's default sources.usb.deviceLabelFields.
func defaultUSBLabelFields() []string { return []string{"class", "vendor", "device"} }

// deviceLabels returns <field>_<field>.present labels (and for PCI
// .sriov.capable) for devices whose class starts with a whitelisted prefix.
func deviceLabels(devs []v1alpha1.InstanceFeature, cfg deviceConfig, valid, defaults []string, pci bool) map[string]string {
	fields := labelFields(cfg.DeviceLabelFields, valid, defaults)
	l := map[string]string{}
	for _, d := range devs {
		class := d.Attributes["class"]
		for _, white := range cfg.DeviceClassWhitelist {
			if !strings.HasPrefix(class, strings.ToLower(white)) {
				continue
			}
			parts := make([]string, len(fields))
			for i, f := range fields {
				parts[i] = d.Attributes[f]
			}
			name := strings.Join(parts, "_")
			l[name+".present"] = "true"
			if _, ok := d.Attributes["sriov_totalvfs"]; ok && pci {
				l[name+".sriov.capable"] = "true"
			}
			break
		}
	}
	return l
}

// labelFields keeps the configured label fields that are valid, in the
// valid order, falling back to the defaults when none is.
func labelFields(configured, valid, defaults []string) []string {
	var out []string
	for _, v := range valid {
		if contains(configured, v) {
			out = append(out, v)
		}
	}
	if len(out) > 0 {
		return out
	}
	return defaults
}

// storageLabels returns the storage source's label.
func storageLabels(f v1alpha1.Features) map[string]string {
	for _, d := range f.Instances["storage.block"].Elements {
		if d.Attributes["rotational"] == "0" {
			return map[string]string{"nonrotationaldisk": "true"}
		}
	}
	return nil
}

// systemLabels returns the system source's os_release labels.
func systemLabels(f v1alpha1.Features) map[string]string {
	l := map[string]string{}
	for _, k := range []string{"ID", "VERSION_ID", "VERSION_ID.major", "VERSION_ID.minor"} {
		if v, ok := f.Attributes["system.osrelease"].Elements[k]; ok {
			l["os_release."+k] = v
		}
	}
	return l
}

// checkedLabels remembers label names and values found valid, safe for
// concurrent use; a nil one remembers nothing.
type checkedLabels struct{ names, values sync.Map }

// has reports whether s was found valid, as a name or a value.
func (c *checkedLabels) has(s string, name bool) bool {
	if c == nil {
		return false
	}
	m := &c.values
	if name {
		m = &c.names
	}
	_, ok := m.Load(s)
	return ok
}

// add remembers s valid, as a name or a value.
func (c *checkedLabels) add(s string, name bool) {
	if c == nil {
		return
	}
	if name {
		c.names.Store(s, struct{}{})
	} else {
		c.values.Store(s, struct{}{})
	}
}
