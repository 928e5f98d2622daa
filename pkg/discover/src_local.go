package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
)

// maxFeatureFileSize is nfd-worker's size limit of a features.d file.
const maxFeatureFileSize = 64 * 1024

// discoverLocal is the local source of nfd-worker v0.19
// (source/local/local.go): the feature files of features.d, read through
// the host reader, so that a symlinked file, absolute or relative,
// resolves inside the host root as nfd-worker resolves it in its own
// mount namespace. Hidden files are skipped; a file that is not regular
// (a directory, a FIFO) adds nothing and is never opened. Hooks (source.d)
// are never run. local.label and local.feature are always emitted, empty
// when there is no directory.
func discoverLocal(e *env, c *collector) {
	features, labels := map[string]string{}, map[string]string{}
	dir := e.features
	ents, err := dir.host.readDir(dir.rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.warn("%v", err)
	}
	now := e.opts.Now()
	for _, ent := range ents {
		if strings.HasPrefix(ent.Name(), ".") {
			continue
		}
		raw, err := readFeatureFile(dir.host, path.Join(dir.rel, ent.Name()))
		if err != nil {
			c.warn("%v", err)
			continue
		}
		f, l, problems := parseFeatureFile(string(raw), now)
		for _, p := range problems {
			c.warnQuoting(fmt.Sprintf("%s: line %d: %s", ent.Name(), p.line, p.brief), "%s: line %d: %s", ent.Name(), p.line, p.detail)
		}
		mergeInto(features, f)
		mergeInto(labels, l)
	}
	c.attrs("label", labels)
	c.attrs("feature", features)
}

// readFeatureFile reads a regular file of at most 64 KiB, following
// symlinks inside the root; other file types read as empty.
func readFeatureFile(h host, rel string) ([]byte, error) {
	fi, err := h.stat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	if fi.Size() > maxFeatureFileSize {
		return nil, fmt.Errorf("reading %q: file size limit exceeded: %d bytes > %d bytes", rel, fi.Size(), maxFeatureFileSize)
	}
	return h.readFileMax(rel, maxFeatureFileSize)
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

// lineProblem is a problem on one line of a file: brief says what without
// quoting the file, detail quotes it.
type lineProblem struct {
	line          int
	brief, detail string
}

// parseFeatureFile parses one feature file: "key[=value]" lines (value
// "true" by default) and "# +expiry-time=<RFC3339>", "# +no-label" and
// "# +no-feature" directives. It returns the features, the labels and the
// problems met. A line whose key or value the output cannot carry (see
// cleanValue) is skipped with a problem; the rest of the file counts.
func parseFeatureFile(raw string, now time.Time) (features, labels map[string]string, problems []lineProblem) {
	features, labels = map[string]string{}, map[string]string{}
	opts := lineOpts{expiry: now}
	for i, l := range strings.Split(raw, "\n") {
		line := strings.TrimSpace(l)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if err := parseDirective(line, &opts); err != nil {
				problems = append(problems, lineProblem{i + 1, "invalid directive", err.Error()})
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
		if key, value, err := cleanPair(key, value); err != nil {
			problems = append(problems, lineProblem{i + 1, "skipped: " + err.Error(), "skipped: " + err.Error()})
		} else {
			applyLine(features, key, value, opts.skipFeature)
			applyLine(labels, key, value, opts.skipLabel)
		}
		opts.skipFeature, opts.skipLabel = false, false
	}
	return features, labels, problems
}

// cleanPair applies cleanValue to a key and its value.
func cleanPair(key, value string) (string, string, error) {
	k, err := cleanValue(key)
	if err != nil {
		return "", "", fmt.Errorf("the key %w", err)
	}
	v, err := cleanValue(value)
	if err != nil {
		return "", "", fmt.Errorf("the value %w", err)
	}
	return k, v, nil
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
