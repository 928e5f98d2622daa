package discover

import "strings"

// dmiMisses are the DMI entries the system source could not read, grouped
// by what went wrong, in the order first met: a host without
// sys/devices/virtual/dmi/id misses every entry for one reason, and gets
// one warning for them all rather than sixteen.
type dmiMisses struct {
	groups []*dmiMiss
}

// dmiMiss is the entries that failed for one reason: the error with the
// entry's name written * (its path names the entry).
type dmiMiss struct {
	reason string
	names  []string
	first  error
}

// add records that entry name could not be read.
func (m *dmiMisses) add(name string, err error) {
	reason := strings.ReplaceAll(err.Error(), name, "*")
	for _, g := range m.groups {
		if g.reason == reason {
			g.names = append(g.names, name)
			return
		}
	}
	m.groups = append(m.groups, &dmiMiss{reason: reason, names: []string{name}, first: err})
}

// warn records one warning per reason on c: a lone entry's own error, or
// the entries' count and names with the shared reason.
func (m *dmiMisses) warn(c *collector) {
	for _, g := range m.groups {
		if len(g.names) == 1 {
			c.warn("failed to get DMI entry %s: %v", g.names[0], g.first)
			continue
		}
		c.warn("failed to get %d DMI entries (%s): %s", len(g.names), strings.Join(g.names, ", "), g.reason)
	}
}
