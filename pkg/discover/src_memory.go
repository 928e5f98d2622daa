package discover

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// discoverMemory is the memory source of nfd-worker v0.19
// (source/memory/memory.go), read from sysfs and procfs under the
// host root: sys/bus/node/devices (memory.numa), proc/swaps (memory.swap),
// sys/bus/nd/devices (memory.nv) and, from v0.18, sys/kernel/mm/hugepages
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
	if !e.rel.hugePages {
		return
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
	var counts [][2]string
	for _, ent := range ents {
		if !ent.IsDir() {
			continue
		}
		n, err := h.readTrim(base + "/" + ent.Name() + "/nr_hugepages")
		if err != nil {
			c.warn("hugepages: %v", err)
		}
		counts = append(counts, [2]string{ent.Name(), n})
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
// hugepages-<size>kB directory as nfd-worker v0.19 does: the size (with
// every trailing "k" and "B" cut) is parsed as a Kubernetes quantity in
// Ki, a directory whose size does not parse is skipped, and the key is
// the quantity's canonical form (hugepages-2Mi); "enabled" is true when
// some size has pages. counts are (directory, nr_hugepages) pairs in
// directory order: where two directories give the same key, the later one
// wins, as in nfd-worker.
func hugePagesAttributes(counts [][2]string) map[string]string {
	m := map[string]string{"enabled": "false"}
	for _, dn := range counts {
		dir, n := dn[0], dn[1]
		size := strings.TrimRight(strings.TrimPrefix(dir, "hugepages-"), "kB")
		q, err := resource.ParseQuantity(size + "Ki")
		if err != nil {
			continue
		}
		m["hugepages-"+q.String()] = n
		if v, err := strconv.Atoi(n); err == nil && v > 0 {
			m["enabled"] = "true"
		}
	}
	return m
}
