package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxFeatureFileSize is nfd-worker's size limit of a features.d file.
const maxFeatureFileSize = 64 * 1024

// discoverLocal is the local source: the feature files of features.d
// (Options.FeaturesDir). Hooks (source.d) are never run. local.label and
// local.feature are always emitted, empty when there is no directory.
func discoverLocal(e *env, c *collector) {
	features, labels := map[string]string{}, map[string]string{}
	ents, err := os.ReadDir(e.featuresDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.warn("reading %q: %v", e.featuresDir, err)
	}
	now := e.opts.Now()
	for _, ent := range ents {
		if strings.HasPrefix(ent.Name(), ".") {
			continue
		}
		raw, err := readFeatureFile(filepath.Join(e.featuresDir, ent.Name()))
		if err != nil {
			c.warn("%v", err)
			continue
		}
		f, l, errs := parseFeatureFile(string(raw), now)
		for _, err := range errs {
			c.warn("%s: %v", ent.Name(), err)
		}
		mergeInto(features, f)
		mergeInto(labels, l)
	}
	c.attrs("label", labels)
	c.attrs("feature", features)
}

// readFeatureFile reads a regular file of at most 64 KiB; other file types
// read as empty.
func readFeatureFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	if fi.Size() > maxFeatureFileSize {
		return nil, fmt.Errorf("reading %q: file size limit exceeded: %d bytes > %d bytes", path, fi.Size(), maxFeatureFileSize)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", path, err)
	}
	return b, nil
}

// mergeInto copies src into dst, later values winning.
func mergeInto(dst, src map[string]string) {
	for k, v := range src {
		dst[k] = v
	}
}

// lineOpts is the directive state while parsing a feature file.
type lineOpts struct {
	expiry      time.Time
	skipLabel   bool
	skipFeature bool
}

// parseFeatureFile parses one feature file: "key[=value]" lines (value
// "true" by default) and "# +expiry-time=<RFC3339>", "# +no-label" and
// "# +no-feature" directives. It returns the features, the labels and the
// directive errors.
func parseFeatureFile(raw string, now time.Time) (features, labels map[string]string, errs []error) {
	features, labels = map[string]string{}, map[string]string{}
	opts := lineOpts{expiry: now}
	for _, l := range strings.Split(raw, "\n") {
		line := strings.TrimSpace(l)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if err := parseDirective(line, &opts); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if opts.expiry.Before(now) {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			value = "true"
		}
		applyLine(features, key, value, opts.skipFeature)
		applyLine(labels, key, value, opts.skipLabel)
		opts.skipFeature, opts.skipLabel = false, false
	}
	return features, labels, errs
}

// applyLine sets or, when skipped, removes key.
func applyLine(m map[string]string, key, value string, skip bool) {
	if skip {
		delete(m, key)
		return
	}
	m[key] = value
}

// parseDirective applies a "# +name[=value]" directive; other comments are
// ignored.
func parseDirective(line string, o *lineOpts) error {
	directive, ok := strings.CutPrefix(line, "# +")
	if !ok {
		return nil
	}
	name, value, hasValue := strings.Cut(directive, "=")
	switch name {
	case "expiry-time":
		if !hasValue {
			return fmt.Errorf("invalid directive format in %q, should be '# +expiry-time=value'", line)
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(value))
		if err != nil {
			return fmt.Errorf("failed to parse expiry-date directive: %w", err)
		}
		o.expiry = t
	case "no-feature":
		o.skipFeature = true
	case "no-label":
		o.skipLabel = true
	default:
		return fmt.Errorf("unknown feature file directive %q", name)
	}
	return nil
}
