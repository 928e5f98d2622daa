package krm

import (
	"bufio"
	"bytes"
	"strconv"
	"sync"
)

// An object read from a file is written back as its own text, not
// encoded from a tree: comments, quoting and layout stay as they were.
// Two things change: it is re-indented as an item of the output list, and
// the path and index annotations are added at the end of
// metadata.annotations, where annotatePlace would add them to its tree.
// placeIn and placement.write do both in text when they can be sure of
// the result; the differential test and fuzz target hold them to parsing
// the original, annotating the tree and encoding it.

// placement is where an object's text is edited: its first lines, the
// rest, and the lines inserted after line at.
type placement struct {
	lines           [][]byte
	rest            []byte
	doc             bool
	indent, col, at int
	insert          []byte
}

// placeIn finds the placement of raw (an object cut from a file: a whole
// document when doc, else a "- " sequence entry) as an entry of a block
// sequence at indent, with the annotation lines ann (each "key: value\n"
// at column 0) added. It reads only the lines up to the end of metadata,
// a few at first, more when metadata runs past them. ok is false when
// those lines hold anything that could make a textual edit read
// differently from the tree edit (see plainLines and quotesClose), or
// metadata or annotations are in flow style, null, or under a quoted key.
func placeIn(raw []byte, doc bool, indent int, ann []byte) (placement, bool) {
	if !bytes.HasSuffix(raw, []byte("\n")) {
		// The last object of a file with no final break: an item must end
		// with one, and a break added after the last line would end a
		// block scalar there with a newline it did not have.
		return placement{}, false
	}
	for n := 256; ; n *= 16 {
		lines, rest := splitLinesN(raw, n)
		first, col, ok := objectStart(lines, doc)
		switch {
		case first < 0 && len(rest) > 0:
			continue // only comments so far
		case !ok:
			return placement{}, false
		}
		at, insert, ok, sure := annotationInsert(raw, lines, len(rest) == 0, first, col, ann)
		switch {
		case !sure:
			continue
		case !ok:
			return placement{}, false
		}
		return placement{lines: lines, rest: rest, doc: doc, indent: indent, col: col, at: at, insert: insert}, true
	}
}

// write makes the placed text: the lines shifted from column col to an
// entry at indent of a block sequence, with insert after line at, then
// the rest. With w nil it returns the text; else it writes it to w as it
// goes, holding no more than a window of it.
func (p placement) write(w *bufio.Writer) []byte {
	shift := p.indent + 2 - p.col
	// A document's dash goes on its first line that is not blank: before
	// a leading comment, as yaml.v3 writes one.
	dash := -1
	if p.doc {
		dash = firstNonBlank(p.lines)
	}
	size := len(p.insert) + p.indent + 2
	for _, l := range p.lines {
		size += len(l) + max(shift, 0)
	}
	if w == nil {
		size += len(p.rest)
		if shift > 0 {
			size += shift * bytes.Count(p.rest, []byte("\n"))
		}
	}
	out := make([]byte, 0, size)
	for i, l := range p.lines {
		switch {
		case i == dash:
			out = appendSpaces(out, p.indent)
			out = append(out, "- "...)
			out = append(out, l[leadingSpaces(l):]...)
		default:
			out = appendShifted(out, l, shift)
		}
		if i == p.at {
			for _, il := range splitLines(withNewline(p.insert)) {
				out = appendShifted(out, il, shift)
			}
		}
	}
	rest := p.rest
	if w == nil {
		if shift == 0 {
			return append(out, rest...)
		}
		for len(rest) > 0 {
			l := lineAt(rest, 0)
			out, rest = appendShifted(out, l, shift), rest[len(l):]
		}
		return out
	}
	w.Write(out)
	if shift == 0 {
		w.Write(rest)
		return nil
	}
	for out = out[:0]; len(rest) > 0; {
		l := lineAt(rest, 0)
		out, rest = appendShifted(out, l, shift), rest[len(l):]
		if len(out) >= placeWindow || len(rest) == 0 {
			w.Write(out)
			out = out[:0]
		}
	}
	return nil
}

// split is the placed text as a head made here and a tail that is the
// input's own bytes, unshifted (none when the text must be shifted).
func (p placement) split() (head, tail []byte) {
	if p.indent+2 != p.col {
		return p.write(nil), nil
	}
	rest := p.rest
	p.rest = nil
	return p.write(nil), rest
}

// placeWindow is how much shifted text write holds before writing it.
const placeWindow = 64 << 10

// splitLinesN is the first n lines of data and the rest of it.
func splitLinesN(data []byte, n int) (lines [][]byte, rest []byte) {
	lines = make([][]byte, 0, min(n, 64))
	for len(data) > 0 && len(lines) < n {
		l := lineAt(data, 0)
		lines, data = append(lines, l), data[len(l):]
	}
	return lines, data
}

// keepsTrailingLines reports a block scalar header with the keep
// indicator ("|+", ">2+", "|+2"): its trailing blank lines are content.
func keepsTrailingLines(raw []byte) bool {
	for i := bytes.IndexByte(raw, '+'); i >= 0; {
		j := i - 1
		if j >= 0 && raw[j] >= '1' && raw[j] <= '9' {
			j--
		}
		if j >= 0 && (raw[j] == '|' || raw[j] == '>') {
			return true
		}
		next := bytes.IndexByte(raw[i+1:], '+')
		if next < 0 {
			break
		}
		i += next + 1
	}
	return false
}

// firstContent is the index of the first line that is not blank or a
// comment, or -1.
func firstContent(lines [][]byte) int {
	for i, l := range lines {
		if !isBlankOrComment(l) {
			return i
		}
	}
	return -1
}

// objectStart is the index of an object's first content line among
// lines (-1 when they hold none) and the column of its top-level keys
// (contentColumn); ok is false when there is no such object.
func objectStart(lines [][]byte, doc bool) (first, col int, ok bool) {
	first = firstContent(lines)
	if first < 0 {
		return -1, 0, false
	}
	col, ok = contentColumn(lines[first], doc)
	return first, col, ok
}

// firstNonBlank is the index of the first line that is not blank.
func firstNonBlank(lines [][]byte) int {
	for i, l := range lines {
		if len(bytes.TrimSpace(l)) > 0 {
			return i
		}
	}
	return 0
}

// contentColumn is the column of the object's top-level keys: 0 for a
// document, the column after "- " for a sequence entry whose first key is
// on the dash's line.
func contentColumn(l []byte, doc bool) (int, bool) {
	sp := leadingSpaces(l)
	if doc {
		return 0, sp == 0 && opensMappingEntry(l)
	}
	if !isSeqEntry(l[sp:]) {
		return 0, false
	}
	col := sp + 1 + leadingSpaces(l[sp+1:])
	// The entry's content must start on the dash's line, one space after
	// it, with a key (not a tag, an anchor or a scalar): every line is
	// shifted by as much as the content's column moves, which the dash's
	// line cannot take when more spaces follow the dash (its key was left
	// out of line with the rest, a FuzzCutFile find).
	return col, col == sp+2 && opensMappingEntry(l[col:])
}

// annotationInsert finds where ann goes: the index of the line after
// which to insert, and the lines to insert at the object's columns. The
// lines are the object's first lines, all of them when complete; sure is
// false when the answer depends on lines not given (metadata not found,
// or not ended, in them).
func annotationInsert(raw []byte, lines [][]byte, complete bool, first, col int, ann []byte) (at int, insert []byte, ok, sure bool) {
	md, mdOK := keyBlock(lines, first, len(lines), col, "metadata", first)
	if !complete && (md.key < 0 || md.end >= len(lines)) {
		return 0, nil, false, false
	}
	// The lines read to find metadata and its end must hold no quoted
	// scalar running over a line: its lines would be read as keys.
	read := len(lines)
	if md.key >= 0 && md.end >= 0 {
		read = min(md.end+1, len(lines))
	}
	if !quotesClose(lines[:read]) || !plainLines(lines[:read]) {
		return 0, nil, false, true
	}
	if !mdOK {
		return 0, nil, false, true
	}
	at, insert, ok = annotationInsertIn(raw, lines, md, first, col, ann)
	return at, insert, ok, true
}

// plainLines reports lines free of what could make a text edit among
// them read differently from the tree edit: tabs and CRs (indentation
// YAML reads otherwise), keep-chomping block scalars (whose trailing blank
// lines an insertion would move) and place annotations already given
// (the tree edit replaces them).
func plainLines(lines [][]byte) bool {
	for _, l := range lines {
		// The legacy place keys are the current ones' tails: both are found.
		if bytes.IndexByte(l, '\t') >= 0 || bytes.IndexByte(l, '\r') >= 0 || keepsTrailingLines(l) ||
			MentionsLegacyPlace(l) {
			return false
		}
	}
	return true
}

// quotesClose reports lines each of which closes every quoted scalar and
// flow collection it opens (lineCloses): no scalar or collection then
// runs from one line into the next, where its lines would be read as
// keys. Whole-line comments are not read; anything the scan is unsure of
// fails it, which only costs the tree edit.
func quotesClose(lines [][]byte) bool {
	block := -1 // the indentation of a block scalar's header line, while in it
	for _, l := range lines {
		sp := leadingSpaces(l)
		t := l[sp:]
		switch {
		case block >= 0 && (sp > block || len(bytes.TrimSpace(t)) == 0):
			if len(t) > 0 && t[0] == '#' {
				return false // text an edit would take for a comment, and insert before
			}
			continue // a block scalar's text, which is not YAML
		case len(t) > 0 && t[0] == '#':
			block = -1
			continue // a comment, since nothing is open before it
		}
		block = -1
		if !lineCloses(l) {
			return false
		}
		if opensBlockScalar(t) {
			block = sp
		}
	}
	return true
}

// opensBlockScalar reports a line (past its indentation) whose value is
// a block scalar's header: "key: |", "- >-", "key: |2+ # comment".
func opensBlockScalar(t []byte) bool {
	if i := bytes.Index(t, []byte(" #")); i >= 0 {
		t = t[:i]
	}
	t = bytes.TrimRight(t, " \n")
	h := bytes.LastIndexAny(t, "|>")
	if h < 0 || (h > 0 && t[h-1] != ' ') {
		return false
	}
	for _, c := range t[h+1:] {
		if c != '-' && c != '+' && (c < '1' || c > '9') {
			return false
		}
	}
	before := bytes.TrimRight(t[:h], " ")
	return len(before) == 0 || bytes.HasSuffix(before, []byte(":")) || bytes.HasSuffix(before, []byte("-"))
}

// lineCloses scans one line of block YAML: a quote opens a quoted scalar
// only where a scalar starts (after the indentation, "- ", ": ", "? ",
// an anchor or tag, and in flow style "[", "{" and ","), and brackets
// are flow style's only there or inside a flow collection; elsewhere
// they are a plain scalar's characters (k:{"uid":"x"}, it's). A quoted
// scalar or flow collection still open at the end of the line makes it
// false; " #" outside quotes ends the line.
func lineCloses(l []byte) bool {
	depth := 0
	start := true     // at a place where a scalar may start
	property := false // in an anchor (&a) or tag (!t) before a scalar
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == ' ':
			if i+1 < len(l) && l[i+1] == '#' {
				return depth == 0
			}
			if property {
				start, property = true, false
			}
		case start && (c == '"' || c == '\''):
			end := closingQuote(l, i)
			if end < 0 {
				return false
			}
			i, start = end, false
		case (start || depth > 0) && (c == '{' || c == '['):
			depth++
			start = true
		case depth > 0 && (c == '}' || c == ']'):
			depth--
			start = false
		case start && (c == '}' || c == ']'):
			return false
		case depth > 0 && c == ',':
			start = true
		case c == '-' || c == '?' || c == ':':
			start = (start || c == ':') && (i+1 == len(l) || l[i+1] == ' ')
		case start && (c == '&' || c == '!'):
			start, property = false, true
		default:
			start = false
		}
	}
	return depth == 0
}

// closingQuote is the index of the quote that closes the quoted scalar
// opened at l[open], or -1 when it does not close on the line: "..."
// with its backslash escapes, '...' with ” for a quote.
func closingQuote(l []byte, open int) int {
	q := l[open]
	for i := open + 1; i < len(l); i++ {
		switch {
		case q == '"' && l[i] == '\\':
			i++
		case l[i] == q && q == '\'' && i+1 < len(l) && l[i+1] == '\'':
			i++
		case l[i] == q:
			return i
		}
	}
	return -1
}

// annotationInsertIn is annotationInsert past its checks, with md the
// place of metadata among lines.
func annotationInsertIn(raw []byte, lines [][]byte, md keyPlace, first, col int, ann []byte) (at int, insert []byte, ok bool) {
	if md.key < 0 {
		if bytes.Contains(raw, []byte("metadata")) {
			return 0, nil, false // under a quoted key, say
		}
		return lastContent(lines, first, len(lines), col), indentLines(col, "metadata:\n  annotations:\n", ann, col+4), true
	}
	if md.child < 0 {
		return 0, nil, false // metadata: null
	}
	an, anOK := keyBlock(lines, md.key+1, md.end, md.child, "annotations", -1)
	if !anOK {
		return 0, nil, false
	}
	if an.key < 0 {
		if bytes.Contains(bytesOf(lines, md.key+1, md.end), []byte("annotations")) {
			return 0, nil, false
		}
		return lastDeeper(lines, md.key+1, md.end, col), indentLines(md.child, "annotations:\n", ann, md.child+2), true
	}
	if an.child < 0 {
		return 0, nil, false // annotations: null
	}
	return lastDeeper(lines, an.key+1, an.end, md.child), indentLines(an.child, "", ann, an.child), true
}

// block is a key's place among lines: the key's line, the end of its
// value's lines, and the column of the value's first line (its keys').
type keyPlace struct {
	key, end, child int
}

// keyBlock finds the key name among the lines [from, to) at column col
// (dashLine, the object's first line, counts as at col after its dash).
// key is -1 when there is none. ok is false when the key is there in a
// form this reader does not edit: a value on the key's line (flow style,
// a scalar, an anchor or a tag) or a value that is not a block mapping of
// plain or quoted keys. The lines
// after the key's block are not read: the objects edited have been parsed,
// so the key is not given twice.
func keyBlock(lines [][]byte, from, to, col int, name string, dashLine int) (keyPlace, bool) {
	b := keyPlace{key: -1, end: -1, child: -1}
	for i := from; i < to; i++ {
		l := lines[i]
		sp := leadingSpaces(l)
		if blankOrCommentAfter(l, sp) {
			continue
		}
		if b.key >= 0 {
			// Inside the key's block: find its end and its keys' column.
			if sp <= col {
				b.end = i
				return b, true
			}
			if b.child < 0 {
				if !opensMappingEntry(l[sp:]) {
					return b, false // a sequence, or a scalar on its own line
				}
				b.child = sp
			}
			continue
		}
		if i == dashLine && sp == col-2 && isSeqEntry(l[sp:]) {
			sp = col // the entry's first key
		}
		if sp != col || !bytes.HasPrefix(l[sp:], []byte(name)) {
			continue
		}
		rest := l[sp+len(name):]
		if len(rest) == 0 || rest[0] != ':' || len(rest) > 1 && rest[1] != ' ' && rest[1] != '\n' {
			continue // another key ("name:x" is a key of its own)
		}
		if !blankOrCommentAfter(rest[1:], leadingSpaces(rest[1:])) {
			return b, false
		}
		b.key, b.end = i, to
	}
	return b, true
}

// opensMappingEntry reports a line (from its first non-space byte) that
// is plainly "key: ..." or "key:": a key with no indicator first and no
// space or comment in it. Anything else (a scalar on its own line, a
// quoted key, flow style) is left to the tree.
func opensMappingEntry(t []byte) bool {
	if len(t) == 0 || bytes.IndexByte([]byte("-?:,[]{}#&*!|>'\"%@`"), t[0]) >= 0 {
		return false
	}
	i := bytes.IndexByte(t, ':')
	if i <= 0 || bytes.ContainsAny(t[:i], " #") {
		return false
	}
	rest := t[i+1:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\n'
}

// lastDeeper is the last line in [from, to) deeper than col (a line of
// spaces deeper than col counts: in a block scalar they are content); with
// col -1, the last line that is content or such spaces, at any column
// deeper than the object's (objCol). It is from-1 when there is none.
func lastDeeper(lines [][]byte, from, to, col int) int {
	return lastDeeperOf(lines, from, to, col, col)
}

// lastContent is lastDeeper with col -1 for an object at column objCol.
func lastContent(lines [][]byte, from, to, objCol int) int {
	return lastDeeperOf(lines, from, to, -1, objCol)
}

func lastDeeperOf(lines [][]byte, from, to, col, objCol int) int {
	for i := to - 1; i >= from; i-- {
		l := lines[i]
		sp := leadingSpaces(l)
		if len(bytes.TrimSpace(l)) == 0 {
			if sp > max(col, objCol) {
				return i // spaces deeper than col: a block scalar's content, maybe
			}
			continue
		}
		if col < 0 && !blankOrCommentAfter(l, sp) || col >= 0 && sp > col {
			return i
		}
	}
	return from - 1
}

// indentLines is head (lines at column 0) at column headCol, followed by
// ann at column annCol.
func indentLines(headCol int, head string, ann []byte, annCol int) []byte {
	var b bytes.Buffer
	for _, l := range splitLines([]byte(head)) {
		b.Write(bytes.Repeat([]byte{' '}, headCol))
		b.Write(l)
	}
	for _, l := range splitLines(ann) {
		b.Write(bytes.Repeat([]byte{' '}, annCol))
		b.Write(l)
	}
	return b.Bytes()
}

// bytesOf is lines [from, to) as one text.
func bytesOf(lines [][]byte, from, to int) []byte {
	var b []byte
	for _, l := range lines[from:to] {
		b = append(b, l...)
	}
	return b
}

// appendShifted appends l moved right by shift columns (left when shift
// is negative: no more than its leading spaces). A line of nothing but
// its break stays empty.
func appendShifted(out, l []byte, shift int) []byte {
	switch {
	case len(l) == 0 || l[0] == '\n':
		return append(out, l...)
	case shift >= 0:
		return append(appendSpaces(out, shift), l...)
	}
	return append(out, l[min(-shift, leadingSpaces(l)):]...)
}

func appendSpaces(out []byte, n int) []byte {
	for range n {
		out = append(out, ' ')
	}
	return out
}

// bigItem is the size from which an unchanged item read from a file is
// written as it is placed, on the writing goroutine, rather than made
// whole on the worker pool: a 50 MB object is then not held twice.
const bigItem = 1 << 20

// placed is the placement of an unchanged item read from a file, when
// its own text can be written (placeIn).
func (rl *ResourceList) placed(it *Item) (placement, bool) {
	if it.json {
		return placement{}, false // JSON text is written from its tree, as YAML
	}
	return placeIn(it.Raw, it.doc, rl.sp.indent, placeLines(it.File, it.Index))
}

// treeText is what is written for an item read from a file whose text
// cannot be placed: a JSON object's own text as a flow entry (jsonEntry),
// else the item parsed, annotated and encoded.
func (rl *ResourceList) treeText(it *Item) ([]byte, error) {
	if it.json {
		if text, ok := rl.jsonEntry(it); ok {
			return text, nil
		}
	}
	n, err := it.ParseTree()
	if err != nil {
		return nil, err
	}
	return rl.EncodeItem(it, n)
}

// writeFileItem writes an unchanged item read from a file, placed as it
// is written (a large one is never held whole) or from its tree.
func (rl *ResourceList) writeFileItem(w *bufio.Writer, it *Item) error {
	if p, ok := rl.placed(it); ok {
		p.write(w)
		return nil
	}
	text, err := rl.treeText(it)
	if err != nil {
		return err
	}
	w.Write(text)
	return nil
}

// fileItemText is the output text of an unchanged item read from a file,
// as writeFileItem writes it. It is safe to call on several items at once.
func (rl *ResourceList) fileItemText(it *Item) ([]byte, error) {
	if p, ok := rl.placed(it); ok {
		return p.write(nil), nil
	}
	return rl.treeText(it)
}

// placeLines is the text of the path and index annotations of file at
// index, as yaml.v3 writes them: the path as it quotes it (made once a
// file), the index, digits, in double quotes.
func placeLines(file string, index int) []byte {
	path, ok := pathText.Load(file)
	if !ok {
		text, err := Encode(StrNode(file))
		if err != nil {
			panic("krm: encoding a string: " + err.Error()) // strings always encode
		}
		path, _ = pathText.LoadOrStore(file, string(bytes.TrimSuffix(text, []byte("\n"))))
	}
	p, i := path.(string), strconv.Quote(strconv.Itoa(index))
	var b []byte
	for k, v := range [4]string{p, p, i, i} {
		b = append(append(append(append(b, PlaceKeys[k]...), ": "...), v...), '\n')
	}
	return b
}

// pathText holds each file's path as yaml.v3 writes it.
var pathText sync.Map
