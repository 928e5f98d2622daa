package discover

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// discoverSystem is the system source of nfd-worker v0.19
// (source/system/system.go): system.name (the node name),
// system.osrelease from etc/os-release under the host root (symlinks such
// as /etc/os-release -> ../usr/lib/os-release are resolved inside the root)
// and system.dmiid from the files of sys/devices/virtual/dmi/id the release
// reads (16 in v0.19, 2 before) that are readable (the feature is left out
// when none is; the entries missed for one reason get one warning).
func discoverSystem(e *env, c *collector) {
	c.attrs("name", map[string]string{"nodename": e.opts.NodeName})
	if raw, err := e.host.readFile("etc/os-release"); err != nil {
		c.warn("failed to get os-release: %v", err)
	} else {
		release, problems := parseOSRelease(raw)
		for _, p := range problems {
			c.warnQuoting(fmt.Sprintf("etc/os-release: line %d: %s", p.line, p.brief), "etc/os-release: line %d: %s", p.line, p.detail)
		}
		c.attrs("osrelease", release)
	}
	dmi := map[string]string{}
	var missed dmiMisses
	for _, name := range e.rel.dmiIDAttributes() {
		if v, err := e.host.readTrim("sys/devices/virtual/dmi/id/" + name); err != nil {
			missed.add(name, err)
		} else {
			dmi[name] = v
		}
	}
	missed.warn(c)
	if len(dmi) > 0 {
		c.attrs("dmiid", dmi)
	}
}

// parseOSRelease reads an os-release file as nfd-worker does, line by line
// with a bufio.Scanner (so a CRLF line end is dropped and a line of 64 KiB
// or more ends the file), keeping every KEY=value line (quotes trimmed, a
// later line winning) plus VERSION_ID.major and VERSION_ID.minor when
// VERSION_ID is numeric. A value the output cannot carry (see cleanValue)
// is skipped with a problem naming its line.
func parseOSRelease(raw []byte) (map[string]string, []lineProblem) {
	m := map[string]string{}
	var problems []lineProblem
	re := regexp.MustCompile(`^(\w+)=(.+)`)
	s := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; s.Scan(); n++ {
		sm := re.FindStringSubmatch(s.Text())
		if sm == nil {
			continue
		}
		v, err := cleanValue(strings.Trim(sm[2], `"'`))
		if err != nil {
			problems = append(problems, lineProblem{n, "skipped: the value " + err.Error(), "skipped " + sm[1] + ": the value " + err.Error()})
			continue
		}
		m[sm[1]] = v
	}
	if v, ok := m["VERSION_ID"]; ok {
		for k, sub := range splitVersion(v) {
			if sub != "" {
				m["VERSION_ID."+k] = sub
			}
		}
	}
	return m, problems
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
