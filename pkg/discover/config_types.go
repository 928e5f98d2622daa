package discover

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	sigsyaml "sigs.k8s.io/yaml"
)

// decodeWorkerConfig decodes YAML over the defaults in c as nfd-worker
// v0.19 does (pkg/nfd-worker loadConfigFile and configureCore):
// sigs.k8s.io/yaml.Unmarshal into the typed configuration (duplicate keys
// tolerated, unknown fields ignored, YAML 1.1 scalars turned into strings
// where a string is wanted), then the klog settings checked as klog's own
// flags check them.
func decodeWorkerConfig(data []byte, c *workerConfig, rel release) error {
	if rel.publishControls {
		if err := sigsyaml.Unmarshal(data, c); err != nil {
			return err
		}
		return checkKlogOptions(c.Core.Klog)
	}
	old := struct {
		Core    coreConfigV18 `json:"core"`
		Sources sourcesConfig `json:"sources"`
	}{Core: coreConfigV18{coreConfig: c.Core}, Sources: c.Sources}
	if err := sigsyaml.Unmarshal(data, &old); err != nil {
		return err
	}
	c.Core, c.Sources = old.Core.coreConfig, old.Sources
	return checkKlogOptions(c.Core.Klog)
}

// coreConfigV18 is the "core" section of nfd-worker v0.17 and v0.18:
// noPublishFeatures and ownerRefs do not exist, so any value of theirs is
// an unknown field, ignored.
type coreConfigV18 struct {
	coreConfig
	NoPublishFeatures unknownField `json:"noPublishFeatures"`
	OwnerRefs         unknownField `json:"ownerRefs"`
}

// unknownField takes any JSON value and keeps nothing, as a field the
// release does not have.
type unknownField struct{}

// UnmarshalJSON ignores the value.
func (unknownField) UnmarshalJSON([]byte) error { return nil }

// UnmarshalJSON decodes the sources section as nfd-worker's sourcesConfig
// does: first into a map of raw sections, then each section whose key is
// exactly the name of a configurable source into that source's settings
// (a second sigs.k8s.io/yaml pass). Other keys, "PCI" included, are
// ignored. Sections are decoded in name order, so the first error reported
// is stable.
func (s *sourcesConfig) UnmarshalJSON(data []byte) error {
	raw := map[string]json.RawMessage{}
	if err := sigsyaml.Unmarshal(data, &raw); err != nil {
		return err
	}
	targets := map[string]any{
		"cpu": &s.CPU, "kernel": &s.Kernel, "pci": &s.PCI, "usb": &s.USB,
		"custom": &s.Custom, "local": &s.Local, "fake": &s.Fake,
	}
	for _, name := range sortedKeys(raw) {
		target, ok := targets[name]
		if !ok {
			continue
		}
		if err := sigsyaml.Unmarshal(raw[name], target); err != nil {
			return fmt.Errorf("failed to parse %q source config: %v", name, err)
		}
	}
	return nil
}

// regexpValue is core.labelWhiteList: a regular expression read from a
// JSON string (nfd-worker's utils.RegexpVal is a text unmarshaller, so a
// number or a boolean is not turned into a string but refused).
type regexpValue struct {
	re *regexp.Regexp
}

// UnmarshalText compiles the expression.
func (r *regexpValue) UnmarshalText(text []byte) error {
	re, err := regexp.Compile(string(text))
	if err != nil {
		return fmt.Errorf("core.labelWhiteList: %w", err)
	}
	r.re = re
	return nil
}

// durationValue is core.sleepInterval: a Go duration string or a number
// of nanoseconds; anything else, null included, stops nfd-worker.
type durationValue struct {
	d time.Duration
}

// UnmarshalJSON decodes the duration as nfd-worker's utils.DurationVal.
func (v *durationValue) UnmarshalJSON(data []byte) error {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	switch x := raw.(type) {
	case float64:
		v.d = time.Duration(x)
	case string:
		d, err := time.ParseDuration(x)
		if err != nil {
			return err
		}
		v.d = d
	default:
		return fmt.Errorf("invalid duration %s", data)
	}
	return nil
}

// ownerRefSources is core.ownerRefs: a list of node, pod and ds, each at
// most once.
type ownerRefSources []string

// UnmarshalJSON decodes and checks the list as nfd-worker does.
func (o *ownerRefSources) UnmarshalJSON(data []byte) error {
	var values []string
	if err := json.Unmarshal(data, &values); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, v := range values {
		if seen[v] {
			return fmt.Errorf("duplicate owner reference source %q", v)
		}
		if v != "node" && v != "pod" && v != "ds" {
			return fmt.Errorf("invalid owner reference source %q (must be one of: node, pod, ds)", v)
		}
		seen[v] = true
	}
	*o = values
	return nil
}

// klogOptionChecks are the klog v2.140 flags nfd-worker v0.19 lets
// core.klog set, by their configuration names, with the check each flag's
// own parser makes. nfd-worker stops when one fails; unknown names are
// only logged.
func klogOptionChecks() map[string]func(string) error {
	boolean := func(s string) error { _, err := strconv.ParseBool(s); return err }
	str := func(string) error { return nil }
	severity := func(s string) error {
		switch strings.ToUpper(s) {
		case "INFO", "WARNING", "ERROR", "FATAL":
			return nil
		}
		_, err := strconv.ParseInt(s, 10, 32)
		return err
	}
	return map[string]func(string) error{
		"addDirHeader": boolean, "alsologtostderr": boolean, "legacyStderrThresholdBehavior": boolean,
		"logtostderr": boolean, "oneOutput": boolean, "skipHeaders": boolean, "skipLogHeaders": boolean,
		"logDir": str, "logFile": str,
		"logFileMaxSize":           func(s string) error { _, err := strconv.ParseUint(s, 0, 64); return err },
		"v":                        func(s string) error { _, err := strconv.ParseInt(s, 10, 32); return err },
		"stderrthreshold":          severity,
		"alsologtostderrthreshold": severity,
		"vmodule":                  checkVmodule,
		"logBacktraceAt":           checkBacktraceAt,
	}
}

// checkKlogOptions checks the core.klog values nfd-worker would apply.
func checkKlogOptions(opts map[string]string) error {
	checks := klogOptionChecks()
	names := make([]string, 0, len(opts))
	for k := range opts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if check, ok := checks[k]; ok {
			if err := check(opts[k]); err != nil {
				return fmt.Errorf("failed to set logger option klog.%s = %v: %w", k, opts[k], err)
			}
		}
	}
	return nil
}

// checkVmodule checks a comma-separated list of pattern=N.
func checkVmodule(s string) error {
	for _, pat := range strings.Split(s, ",") {
		if pat == "" {
			continue
		}
		p := strings.Split(pat, "=")
		if len(p) != 2 || p[0] == "" || p[1] == "" {
			return errors.New("syntax error: expect comma-separated list of filename=N")
		}
		n, err := strconv.ParseInt(p[1], 10, 32)
		if err != nil {
			return errors.New("syntax error: expect comma-separated list of filename=N")
		}
		if n < 0 {
			return errors.New("negative value for vmodule level")
		}
	}
	return nil
}

// checkBacktraceAt checks a file.go:N location (empty unsets it).
func checkBacktraceAt(s string) error {
	if s == "" {
		return nil
	}
	f := strings.Split(s, ":")
	if len(f) != 2 || !strings.Contains(f[0], ".") {
		return errors.New("syntax error: expect file.go:234")
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return errors.New("syntax error: expect file.go:234")
	}
	if n <= 0 {
		return errors.New("negative or zero value for level")
	}
	return nil
}
