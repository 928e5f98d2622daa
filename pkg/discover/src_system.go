package discover

import (
	"regexp"
	"strings"
)

// discoverSystem is the system source: system.name (the node name),
// system.osrelease from etc/os-release under the host root (symlinks such
// as /etc/os-release -> ../usr/lib/os-release are resolved inside the root),
// system.dmiid from sys/devices/virtual/dmi/id and system.libc from the C
// library's ELF file (see readLibc).
func discoverSystem(e *env, c *collector) {
	c.attrs("name", map[string]string{"nodename": e.opts.NodeName})
	if raw, err := e.host.readFile("etc/os-release"); err != nil {
		c.warn("failed to get os-release: %v", err)
	} else {
		c.attrs("osrelease", parseOSRelease(string(raw)))
	}
	dmi := map[string]string{}
	for _, name := range []string{"sys_vendor", "product_name"} {
		if v, err := e.host.readTrim("sys/devices/virtual/dmi/id/" + name); err != nil {
			c.warn("failed to get DMI entry %s: %v", name, err)
		} else {
			dmi[name] = v
		}
	}
	if len(dmi) > 0 {
		c.attrs("dmiid", dmi)
	}
	if libc, err := readLibc(e.host, e.arch); err != nil {
		c.warn("failed to detect libc version: %v", err)
	} else {
		c.attrs("libc", libc)
	}
}

// parseOSRelease returns every KEY=value of an os-release file (quotes
// trimmed; lines that are not KEY=value are ignored) plus VERSION_ID.major
// and VERSION_ID.minor when VERSION_ID is numeric.
func parseOSRelease(raw string) map[string]string {
	m := map[string]string{}
	re := regexp.MustCompile(`^(\w+)=(.+)`)
	for _, line := range strings.Split(raw, "\n") {
		if sm := re.FindStringSubmatch(line); sm != nil {
			m[sm[1]] = strings.Trim(sm[2], `"'`)
		}
	}
	if v, ok := m["VERSION_ID"]; ok {
		for k, sub := range splitVersion(v) {
			if sub != "" {
				m["VERSION_ID."+k] = sub
			}
		}
	}
	return m
}

// splitVersion splits a numeric version into major and minor.
func splitVersion(v string) map[string]string {
	re := regexp.MustCompile(`^(?P<major>\d+)(\.(?P<minor>\d+))?(\..*)?$`)
	out := map[string]string{}
	if m := re.FindStringSubmatch(v); m != nil {
		for i, name := range re.SubexpNames() {
			if name != "" {
				out[name] = m[i]
			}
		}
	}
	return out
}
