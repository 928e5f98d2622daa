package objects

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// MaxFileSize caps the size of one input file (64 MiB): a larger file is
// an error, not a read that exhausts memory.
const MaxFileSize = 64 << 20

// MentionsNFD reports whether a file's text names an NFD API group or kind:
// the files worth reading in a repository that also holds Helm charts,
// kustomizations and other manifests.
func MentionsNFD(data []byte) bool {
	for _, s := range []string{"nfd.k8s-sigs.io", "nfd.openshift.io", "NodeFeature"} {
		if bytes.Contains(data, []byte(s)) {
			return true
		}
	}
	return false
}

// NotText reports a file that is not text (a NUL byte, invalid UTF-8): a
// .yaml file that no YAML reader accepts, whatever it mentions. Callers
// that skip files not mentioning NFD still read it, so that it fails
// validate as it fails render.
func NotText(data []byte) bool {
	return bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data)
}

// TemplateNote recognises a template source (Helm's {{ }}), which is
// YAML only once rendered: a file that holds {{ and does not parse, or
// holds {{ anywhere but in the value of a rule's template field
// (labelsTemplate, varsTemplate: nfd-master runs those). It is noted and
// not checked, rather than reported as broken. A file over MaxFileSize is
// an export, streamed, never a chart's template: it is not parsed here.
func TemplateNote(data []byte, file string) (diag.Diagnostic, bool) {
	if len(data) > MaxFileSize || !bytes.Contains(data, []byte("{{")) || !templateSource(data) {
		return diag.Diagnostic{}, false
	}
	return diag.Diagnostic{Severity: diag.Info, Check: "template-file", Pos: diag.Position{File: file},
		Message: "a template ({{ }} outside labelsTemplate and varsTemplate) that is YAML only once rendered: not checked (validate what helm template renders instead)"}, true
}

// templateFields are the fields whose values are templates nfd-master
// runs, and so may hold {{ }} in a file that is not itself a template.
// annotationsTemplate is no NFD field, but one written in a chart is
// still NFD's kind of template, not Helm's. kubectl's
// last-applied-configuration annotation is the object's own JSON, its
// templates included (a cluster export holds it).
var templateFields = map[string]bool{"labelsTemplate": true, "varsTemplate": true, "annotationsTemplate": true,
	"kubectl.kubernetes.io/last-applied-configuration": true}

// templateSource reports text that does not parse as YAML, or holds {{
// in a key or value other than a template field's value.
func templateSource(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil || helmOutsideTemplates(&doc) {
			return true
		}
	}
}

// helmOutsideTemplates walks the tree n (without following aliases, whose
// anchors are walked where they stand) for a scalar holding {{ that is
// not the value of a template field.
func helmOutsideTemplates(n *yaml.Node) bool {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n, stack = stack[len(stack)-1], stack[:len(stack)-1]
		switch n.Kind {
		case yaml.ScalarNode:
			if strings.Contains(n.Value, "{{") {
				return true
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Kind == yaml.ScalarNode && templateFields[k.Value] && v.Kind == yaml.ScalarNode {
					continue
				}
				stack = append(stack, k, v)
			}
		default:
			stack = append(stack, n.Content...)
		}
	}
	return false
}

// largeFileHint says what to do with a file over MaxFileSize: a list that
// large (a cluster's export) streams on stdin.
const largeFileHint = "; a list that large (a kubectl export) streams on stdin instead: nfd-fn render < FILE (docs/scale.md)"

// ReadFile reads a regular file of at most MaxFileSize bytes: a FIFO or a
// device is refused rather than read (it could block forever).
func ReadFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("reading %s: not a regular file", path)
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("reading %s: %d bytes, more than the %d bytes nfd-fn reads from one file%s", path, info.Size(), MaxFileSize, largeFileHint)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("reading %s: more than the %d bytes nfd-fn reads from one file%s", path, MaxFileSize, largeFileHint)
	}
	return data, nil
}

// CollectFiles expands directories into their YAML and JSON files, sorted;
// hidden directories such as .git are skipped. A symlink named as one is
// followed to its file; one that leads nowhere (dangling, a loop) or to
// something other than a regular file (a FIFO, a device, a socket, a
// directory), and any such entry itself, is an error naming each of them
// (unreadableEntry), for nothing in a directory is skipped unsaid.
func CollectFiles(paths []string) ([]string, error) {
	var files, unreadable []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if !isManifest(path) || d.IsDir() {
				return nil
			}
			if why := unreadableEntry(path, d); why != "" {
				unreadable = append(unreadable, path+" ("+why+")")
				return nil
			}
			add(path)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(unreadable) > 0 {
		return nil, fmt.Errorf("cannot read %s named as manifests in the directories given: %s",
			diag.Plural(len(unreadable), "file"), strings.Join(unreadable, "; "))
	}
	sort.Strings(files)
	return files, nil
}

func isManifest(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// Doc is one document of a file: a List's items are documents of their
// own, with the List's index.
type Doc struct {
	Node  *yaml.Node
	Index int
	// InList marks an item of a v1 List: meant to be an object.
	InList bool
}

// ReadDocuments splits one file's text into its documents (v1 Lists
// expanded, empty documents skipped). A syntax error, or a document over
// the limits of untrusted YAML (nested deeper than yamlstrict.MaxDepth,
// aliases expanding past yamlstrict.MaxAliasNodes), is a diagnostic at its
// line; the documents before it are returned.
func ReadDocuments(data []byte, file string) ([]Doc, *diag.Diagnostic) {
	dec := yaml.NewDecoder(bytes.NewReader(ys.JSONForYAML(data)))
	var docs []Doc
	for i := 0; ; i++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			d := syntaxError(file, i, err)
			return docs, &d
		}
		if len(n.Content) == 0 || isNullDoc(n.Content[0]) {
			continue
		}
		if err := ys.CheckTree(n.Content[0], ys.MaxDepth, ys.MaxAliasNodes); err != nil {
			// Typed decoding follows aliases: a billion-laughs document is
			// refused before it meets it, like a syntax error.
			d := diag.Diagnostic{Severity: diag.Error, Check: "yaml", Message: fmt.Sprintf("%v; the rest of the file is not checked", err),
				Object: docRef(n.Content[0]), Pos: diag.Position{File: file, Index: i, Line: n.Content[0].Line, Column: n.Content[0].Column}}
			if dk := (*ys.DuplicateKeyError)(nil); errors.As(err, &dk) {
				d.Pos.Line, d.Pos.Column = dk.Line, dk.Column // the second key
			}
			return docs, &d
		}
		items := Documents(n.Content[0])
		for _, doc := range items {
			docs = append(docs, Doc{Node: doc, Index: i, InList: doc != n.Content[0]})
		}
	}
}

// docRef names the object a document holds, as far as it says (nothing
// for a document that is not an object).
func docRef(n *yaml.Node) diag.ObjectRef {
	md := ys.Mapping(n, "metadata")
	return diag.ObjectRef{APIVersion: ys.Scalar(n, "apiVersion"), Kind: ys.Scalar(n, "kind"),
		Namespace: ys.Scalar(md, "namespace"), Name: ys.Scalar(md, "name")}
}

// Documents expands a v1 List (what kubectl get -o yaml prints) into its
// items; any other document is itself.
func Documents(n *yaml.Node) []*yaml.Node {
	kind := ys.Scalar(n, "kind")
	if ys.Scalar(n, "apiVersion") != "v1" || (kind != "List" && !strings.HasSuffix(kind, "List")) {
		return []*yaml.Node{n}
	}
	items := ys.Value(n, "items")
	if items == nil || items.Kind != yaml.SequenceNode {
		return []*yaml.Node{n}
	}
	return items.Content
}

func isNullDoc(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

var yamlErrLine = regexp.MustCompile(`line (\d+)`)

func syntaxError(file string, index int, err error) diag.Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimPrefix(msg, m[0]+": ")
		if parserProblem(msg) {
			line++
		}
	}
	d := diag.Diagnostic{Severity: diag.Error, Check: "yaml", Pos: diag.Position{File: file, Index: index},
		Message: fmt.Sprintf("YAML does not parse: %s; the rest of the file is not checked", msg)}
	if line > 0 {
		d.Pos.Line, d.Pos.Column = line, 1
	}
	return d
}

// parserProblem reports a problem of yaml.v3's parser (not its scanner):
// the parser reports its line counting from 0 (the line of the construct
// the problem is in, or of the offending token), the scanner from 1.
func parserProblem(msg string) bool {
	return strings.HasPrefix(msg, "did not find expected") || strings.HasPrefix(msg, "found undefined tag handle")
}
