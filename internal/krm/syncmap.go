package krm

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"
)

// SyncMapText is SyncStringMap done on an item's text: the block mapping
// at parent.key (metadata.labels, say) is made to hold exactly want, kept
// entries keep their lines, changed ones are written again, new ones are
// appended in sorted order, and every other line of raw stays as it is.
// raw is an item's text: a "- " sequence entry, or a whole document when
// doc. A key that is absent is added at the end of parent when want is
// not empty, as EnsureMap adds it.
//
// ok is false when the text is not one this edit can be sure of (parent
// missing, a mapping in flow style or holding comments, blank lines,
// multi-line values or a value that is not a scalar, a map left empty,
// tabs, CRs): the caller then patches a tree. changed reports whether out
// differs from raw.
func SyncMapText(raw []byte, doc bool, parent, key string, want map[string]string) (out []byte, changed, ok bool) {
	if bytes.IndexByte(raw, '\t') >= 0 || bytes.IndexByte(raw, '\r') >= 0 || oddBreakIn(raw, 0, len(raw)) {
		// (NEL, LS and PS are line breaks to YAML, not to these lines.)
		return nil, false, false
	}
	lines := splitLines(raw)
	first, col, ok := objectStart(lines, doc)
	if !ok {
		return nil, false, false
	}
	pb, ok := keyBlock(lines, first, len(lines), col, parent, first)
	if !ok || pb.key < 0 || pb.child < 0 {
		return nil, false, false
	}
	mb, ok := keyBlock(lines, pb.key+1, pb.end, pb.child, key, -1)
	if read := lines[:min(pb.end+1, len(lines))]; !ok || !quotesClose(read) || keepsTrailingLines(bytesOf(read, 0, len(read))) {
		// (A quoted scalar over lines, see quotesClose; a keep-chomping
		// block scalar, whose trailing blank lines an insertion would move.)
		return nil, false, false
	}
	if mb.key < 0 {
		if len(want) == 0 {
			return raw, false, true
		}
		if bytes.Contains(bytesOf(lines, pb.key+1, pb.end), []byte(key)) {
			return nil, false, false // under a quoted key, say
		}
		text, ok := entriesText(want, slices.Sorted(maps.Keys(want)), pb.child+2)
		if !ok {
			return nil, false, false
		}
		at := lastDeeper(lines, pb.key+1, pb.end, col) + 1
		if at == len(lines) && !bytes.HasSuffix(raw, []byte("\n")) {
			return nil, false, false // a break added there could end a block scalar
		}
		return splice(lines, at, at, append(indentLines(pb.child, key+":\n", nil, 0), text...)), true, true
	}
	if mb.child < 0 {
		return nil, false, false
	}
	end := lastDeeper(lines, mb.key+1, mb.end, pb.child) + 1
	old, ok := parseEntries(lines, mb.key, end, mb.child)
	if !ok {
		return nil, false, false
	}
	text, changed, ok := syncEntries(lines[mb.key+1:end], old, want, mb.child)
	if !ok || !changed {
		return raw, false, ok
	}
	return splice(lines, mb.key+1, end, text), true, true
}

// parseEntries parses the lines [key, end) (a "key:" line and its block
// mapping at column child) and returns the mapping, when every entry is
// a scalar on a line of its own and no line is blank or a comment.
func parseEntries(lines [][]byte, key, end, child int) (*yaml.Node, bool) {
	for _, l := range lines[key+1 : end] {
		if leadingSpaces(l) != child || blankOrCommentAfter(l, child) {
			return nil, false
		}
	}
	var doc yaml.Node
	if yaml.Unmarshal(bytesOf(lines, key, end), &doc) != nil {
		return nil, false
	}
	top := DocContent(&doc)
	if top == nil || top.Kind != yaml.MappingNode || len(top.Content) != 2 {
		return nil, false
	}
	m := top.Content[1]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2*(end-key-1) {
		return nil, false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || k.Line != 2+i/2 || v.Line != k.Line || seen[k.Value] {
			return nil, false
		}
		seen[k.Value] = true
	}
	return m, true
}

// syncEntries is the text of mapping m's entries (whose lines are lines)
// made to hold exactly want, as SyncStringMap makes a tree hold it.
func syncEntries(lines [][]byte, m *yaml.Node, want map[string]string, col int) (text []byte, changed, ok bool) {
	ok = true
	added, dropped := syncPlan(len(m.Content)/2, func(i int) string { return m.Content[2*i].Value }, want,
		func(i int, nv string) {
			k, v := m.Content[2*i], m.Content[2*i+1]
			if v.Value == nv {
				text = append(text, withNewline(lines[i])...) // one scalar a line: a break is safe
				return
			}
			changed = true
			entry, good := entryText(k, StrNode(nv), col)
			ok = ok && good
			text = append(text, entry...)
		})
	more, good := entriesText(want, added, col)
	if !ok || !good {
		return nil, false, false
	}
	text = append(text, more...)
	if len(text) == 0 {
		return nil, false, false // an empty map is written "{}": the tree does that
	}
	return text, changed || dropped || len(added) > 0, true
}

// entriesText is the lines of want's entries named by keys, in order, at
// col.
func entriesText(want map[string]string, keys []string, col int) ([]byte, bool) {
	var text []byte
	for _, k := range keys {
		entry, ok := entryText(StrNode(k), StrNode(want[k]), col)
		if !ok {
			return nil, false
		}
		text = append(text, entry...)
	}
	return text, true
}

// entryText is "key: value" as yaml.v3 writes it in a block mapping at
// col. A value with a space is refused: yaml.v3 may fold it, at a place
// that depends on the column.
func entryText(k, v *yaml.Node, col int) ([]byte, bool) {
	if strings.IndexByte(v.Value, ' ') >= 0 || strings.IndexByte(k.Value, ' ') >= 0 {
		return nil, false
	}
	return indentLines(0, "", entryLine(k, v), col), true
}

// entryCache holds the encoded lines of entries already written: a
// fleet's Nodes get the same labels again and again, and yaml.v3's encoder
// costs far more than the lookup. It stops growing at entryCacheMax.
var (
	entryCache      sync.Map // entryKey -> []byte
	entryCacheCount atomic.Int64
)

const entryCacheMax = 100_000

type entryKey struct {
	key, value     string
	kStyle, vStyle yaml.Style
	kTag, vTag     string
}

// entryLine is the encoding of the mapping {k: v}, cached.
func entryLine(k, v *yaml.Node) []byte {
	ck := entryKey{k.Value, v.Value, k.Style, v.Style, k.Tag, v.Tag}
	if text, ok := entryCache.Load(ck); ok {
		return text.([]byte)
	}
	text, err := Encode(mapping(k, v))
	if err != nil {
		return nil
	}
	if entryCacheCount.Add(1) <= entryCacheMax {
		entryCache.Store(ck, text)
	}
	return text
}

// splice is lines with [from, to) replaced by text.
func splice(lines [][]byte, from, to int, text []byte) []byte {
	var b bytes.Buffer
	for _, l := range lines[:from] {
		b.Write(l)
	}
	if from > 0 && !bytes.HasSuffix(lines[from-1], []byte("\n")) {
		b.WriteByte('\n')
	}
	b.Write(text)
	for _, l := range lines[to:] {
		b.Write(l)
	}
	return b.Bytes()
}

// ItemText is the output text of item it with its text changed to text
// (SyncMapText's, or SyncMapJSON's): as it is for an item cut from a
// block ResourceList, re-indented for one of a JSON list, placed
// (re-indented and annotated, as an unchanged file item is) for one read
// from a file.
func (rl *ResourceList) ItemText(it *Item, text []byte) ([]byte, error) {
	changed := *it
	changed.Raw = text
	switch rl.output(&changed, StateRaw) {
	case outJSON:
		return rl.jsonItemText(&changed)
	case outPlaced:
		return rl.fileItemText(&changed)
	}
	return withNewline(text), nil
}
