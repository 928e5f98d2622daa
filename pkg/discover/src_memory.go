package discover

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
)

// discoverMemory is the memory source, read from sysfs and procfs under the
// host root: sys/bus/node/devices (memory.numa), proc/swaps (memory.swap),
// sys/bus/nd/devices (memory.nv) and sys/kernel/mm/hugepages
// (memory.hugepages).
func discoverMemory(e *env, c *collector) {
	h := e.host
	if nodes, err := h.names("sys/bus/node/devices"); err != nil {
		c.warn("numa: failed to list numa nodes: %v", err)
	} else {
		c.attrs("numa", numaAttributes(len(nodes)))
	}
	if swaps, err := h.readFile("proc/swaps"); err != nil {
		c.warn("swap: failed to read swaps file: %v", err)
	} else {
		c.attrs("swap", swapAttributes(string(swaps)))
	}
	if nv, err := readNV(h); err != nil {
		c.warn("nv: failed to list nvdimm devices: %v", err)
	} else {
		c.instances("nv", nv)
	}
	if hp, err := readHugePages(h, c); err != nil {
		c.warn("hugepages: %v", err)
	} else {
		c.attrs("hugepages", hp)
	}
}

// readNV lists NVDIMM devices with their devtype and mode.
func readNV(h host) ([]map[string]string, error) {
	const base = "sys/bus/nd/devices"
	devs, err := h.names(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var out []map[string]string
	for _, d := range devs {
		attrs := map[string]string{"name": d}
		for _, a := range []string{"devtype", "mode"} {
			if v, err := h.readTrim(base + "/" + d + "/" + a); err == nil {
				attrs[a] = v
			}
		}
		out = append(out, attrs)
	}
	return out, nil
}

// readHugePages reads the configured page count of every huge page size.
func readHugePages(h host, c *collector) (map[string]string, error) {
	const base = "sys/kernel/mm/hugepages"
	ents, err := h.readDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{"enabled": "false"}, nil
	} else if err != nil {
		return nil, err
	}
	counts := map[string]string{}
	for _, ent := range ents {
		if !ent.IsDir() {
			continue
		}
		n, err := h.readTrim(base + "/" + ent.Name() + "/nr_hugepages")
		if err != nil {
			c.warn("hugepages: %v", err)
		}
		counts[ent.Name()] = n
	}
	return hugePagesAttributes(counts), nil
}

// numaAttributes builds memory.numa from the NUMA node count.
func numaAttributes(nodes int) map[string]string {
	return map[string]string{"is_numa": strconv.FormatBool(nodes > 1), "node_count": strconv.Itoa(nodes)}
}

// swapAttributes builds memory.swap from /proc/swaps (a header line, then
// one line per swap area).
func swapAttributes(swaps string) map[string]string {
	lines := 0
	for _, l := range strings.Split(swaps, "\n") {
		if strings.TrimSpace(l) != "" {
			lines++
		}
	}
	return map[string]string{"enabled": strconv.FormatBool(lines > 1)}
}

// hugePagesAttributes builds memory.hugepages from the nr_hugepages of each
// hugepages-<size>kB directory: keys are Kubernetes resource names
// (hugepages-2Mi), "enabled" is true when some size has pages.
func hugePagesAttributes(counts map[string]string) map[string]string {
	m := map[string]string{"enabled": "false"}
	for dir, n := range counts {
		size := strings.TrimRight(strings.TrimPrefix(dir, "hugepages-"), "kB")
		kib, err := strconv.ParseUint(size, 10, 64)
		if err != nil {
			continue
		}
		m["hugepages-"+binaryQuantity(kib*1024)] = n
		if v, err := strconv.Atoi(n); err == nil && v > 0 {
			m["enabled"] = "true"
		}
	}
	return m
}

// binaryQuantity formats bytes as a canonical Kubernetes binary-SI quantity
// (2097152 -> "2Mi"), as resource.Quantity.String does for such values.
func binaryQuantity(b uint64) string {
	suffixes := []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	i := 0
	for b >= 1024 && b%1024 == 0 && i < len(suffixes)-1 {
		b /= 1024
		i++
	}
	return strconv.FormatUint(b, 10) + suffixes[i]
}
