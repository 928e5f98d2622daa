// Command pkggen writes the items of a block-style ResourceList (a
// fleetgen fleet) as a kpt package: one file per object, in a folder per
// kind (nodefeatures/node-0001.yaml, nodefeaturerules/..., configmaps/...),
// each object as a document of its own at column 0. It is a benchmark
// input (make bench-fleet measures `nfd-fn render DIR` on it), not part of
// nfd-fn.
//
//	go run ./internal/pkggen -out DIR < fleet-1000.yaml
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

func main() {
	out := flag.String("out", "", "directory to write the package to (must not exist)")
	flag.Parse()
	if *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	in, err := io.ReadAll(os.Stdin)
	check(err)
	_, items, ok := bytes.Cut(in, []byte("\nitems:\n"))
	if !ok {
		check(fmt.Errorf("stdin is not a block-style ResourceList with items"))
	}
	check(os.Mkdir(*out, 0o755))
	for i, item := range cutItems(items) {
		kind, name := identity(item)
		dir := filepath.Join(*out, strings.ToLower(kind)+"s")
		check(os.MkdirAll(dir, 0o755))
		file := filepath.Join(dir, fmt.Sprintf("%s.yaml", name))
		if _, err := os.Stat(file); err == nil {
			file = filepath.Join(dir, fmt.Sprintf("%s-%d.yaml", name, i))
		}
		check(os.WriteFile(file, dedent(item), 0o644))
	}
}

// cutItems cuts the items section at its "- " lines in column 0 (or 2, as
// the first item's dash says), up to the next top-level key.
func cutItems(items []byte) [][]byte {
	lines := bytes.SplitAfter(items, []byte("\n"))
	indent := len(lines[0]) - len(bytes.TrimLeft(lines[0], " "))
	dash := strings.Repeat(" ", indent) + "- "
	var out [][]byte
	var cur []byte
	for _, l := range lines {
		if len(l) > 0 && l[0] != ' ' && l[0] != '-' && l[0] != '#' && l[0] != '\n' {
			break // the next top-level key
		}
		if bytes.HasPrefix(l, []byte(dash)) && cur != nil {
			out = append(out, cur)
			cur = nil
		}
		cur = append(cur, l...)
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}

var (
	kindRE = regexp.MustCompile(`(?m)^[ -]*kind: (\S+)$`)
	nameRE = regexp.MustCompile(`(?m)^ {2,4}name: (\S+)$`)
)

func identity(item []byte) (kind, name string) {
	kind, name = "Object", "object"
	if m := kindRE.FindSubmatch(item); m != nil {
		kind = string(m[1])
	}
	if m := nameRE.FindSubmatch(item); m != nil {
		name = string(m[1])
	}
	return kind, name
}

// dedent turns "- a: 1\n  b: 2" into "a: 1\nb: 2": the item as a document.
func dedent(item []byte) []byte {
	lines := bytes.SplitAfter(item, []byte("\n"))
	first := lines[0]
	col := len(first) - len(bytes.TrimLeft(first, " ")) + 2
	var b bytes.Buffer
	for _, l := range lines {
		sp := len(l) - len(bytes.TrimLeft(l, " "))
		switch {
		case bytes.HasPrefix(bytes.TrimLeft(l, " "), []byte("- ")) && sp == col-2 && b.Len() == 0:
			b.Write(l[col:])
		case sp >= col:
			b.Write(l[col:])
		default:
			b.Write(bytes.TrimLeft(l, " "))
		}
	}
	return b.Bytes()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "pkggen:", err)
		os.Exit(1)
	}
}
