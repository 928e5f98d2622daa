package lint

import "sort"

// featureKind is the type of a feature in nfd-worker's catalogue.
type featureKind string

const (
	flagFeature      featureKind = "flag"
	attributeFeature featureKind = "attribute"
	instanceFeature  featureKind = "instance"
)

// catalogueEntry describes one feature nfd-worker v0.19 publishes. kinds
// lists its types (cpu.cpuid is both flags and attributes); elements, when
// set, is the fixed set of element (or instance attribute) names.
type catalogueEntry struct {
	kinds    []featureKind
	elements []string
}

func attrs(elements ...string) catalogueEntry {
	return catalogueEntry{kinds: []featureKind{attributeFeature}, elements: elements}
}

func instances(elements ...string) catalogueEntry {
	return catalogueEntry{kinds: []featureKind{instanceFeature}, elements: elements}
}

// catalogue is the features nfd-worker v0.19 produces, from the
// customization guide's feature table and the worker's sources. Open
// element sets (cpuid flags, kconfig options, os-release keys, modules,
// rule.matched, local labels) have no element list.
var catalogue = map[string]catalogueEntry{
	"cpu.cpuid":            {kinds: []featureKind{flagFeature, attributeFeature}},
	"cpu.cstate":           attrs("enabled"),
	"cpu.model":            attrs("family", "id", "vendor_id", "hypervisor"),
	"cpu.pstate":           attrs("status", "turbo", "scaling_governor"),
	"cpu.rdt":              attrs("RDTMON", "RDTCMT", "RDTMBM", "RDTL3CA", "RDTL2CA", "RDTMBA", "RDTL3CA_NUM_CLOSID"),
	"cpu.security":         attrs("sgx.enabled", "sgx.epc", "se.enabled", "tdx.enabled", "tdx.total_keys", "tdx.protected", "sev.enabled", "sev.es.enabled", "sev.snp.enabled", "sev.asids", "sev.encrypted_state_ids"),
	"cpu.sst":              attrs("bf.enabled"),
	"cpu.topology":         attrs("hardware_multithreading", "socket_count"),
	"cpu.coprocessor":      attrs("nx_gzip"),
	"kernel.config":        {kinds: []featureKind{attributeFeature}},
	"kernel.loadedmodule":  {kinds: []featureKind{flagFeature}},
	"kernel.enabledmodule": {kinds: []featureKind{flagFeature}},
	"kernel.selinux":       attrs("enabled"),
	"kernel.version":       attrs("full", "major", "minor", "revision"),
	"kernel.kvm":           attrs("enabled"),
	"local.label":          {kinds: []featureKind{attributeFeature}},
	"local.feature":        {kinds: []featureKind{attributeFeature}},
	"memory.numa":          attrs("is_numa", "node_count"),
	"memory.swap":          attrs("enabled"),
	"memory.hugepages":     {kinds: []featureKind{attributeFeature}},
	"memory.nv":            instances("devtype", "mode", "name"),
	"network.device":       instances("name", "operstate", "speed", "sriov_numvfs", "sriov_totalvfs", "mtu"),
	"network.virtual":      instances("name", "operstate", "speed", "mtu"),
	"pci.device":           instances("class", "vendor", "device", "subsystem_vendor", "subsystem_device", "sriov_totalvfs", "iommu_group/type", "iommu/intel-iommu/version"),
	"storage.block":        instances("name", "dax", "rotational", "nr_zones", "zoned"),
	"system.osrelease":     {kinds: []featureKind{attributeFeature}},
	"system.name":          attrs("nodename"),
	"system.dmiid": attrs("bios_date", "bios_vendor", "bios_version", "board_asset_tag", "board_name", "board_vendor",
		"board_version", "chassis_asset_tag", "chassis_type", "chassis_vendor", "chassis_version", "product_family",
		"product_name", "product_sku", "product_version", "sys_vendor"),
	"usb.device":   instances("class", "vendor", "device", "serial"),
	"rule.matched": {kinds: []featureKind{attributeFeature}},
}

// elementAliases are element names people write for what a feature holds
// under another name (system.name has the node's name as nodename, as
// uname calls it; storage.block says rotational, 0 for an SSD).
var elementAliases = map[string]string{
	"hostname": "nodename", "node_name": "nodename", "nodeName": "nodename",
	"nonrotational": "rotational", "nonrotationaldisk": "rotational", "ssd": "rotational",
}

// renamedFeatures are names from older NFD releases and documentation.
var renamedFeatures = map[string]string{
	"storage.device": "storage.block",
	"cpu.sgx":        "cpu.security (element sgx.enabled)",
	"cpu.se":         "cpu.security (element se.enabled)",
}

// builtinDomains are the feature domains nfd-worker owns.
var builtinDomains = map[string]bool{
	"cpu": true, "kernel": true, "local": true, "memory": true, "network": true,
	"pci": true, "rule": true, "storage": true, "system": true, "usb": true,
}

func catalogueNames() []string {
	names := make([]string, 0, len(catalogue))
	for n := range catalogue {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (e catalogueEntry) has(k featureKind) bool {
	for _, x := range e.kinds {
		if x == k {
			return true
		}
	}
	return false
}

func (e catalogueEntry) hasElement(name string) bool {
	if e.elements == nil {
		return true
	}
	for _, x := range e.elements {
		if x == name {
			return true
		}
	}
	return false
}
