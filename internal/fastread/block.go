package fastread

import (
	"bytes"

	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// block reads the plain block-style YAML that kubectl, kpt and nfd-worker
// write: mappings of "key: value" lines, block sequences of "- " entries
// (at the key's column or deeper), single-line scalars that are plain,
// double-quoted without escapes or single-quoted without doubled quotes,
// the empty flow collections {} and [], blank lines and whole-line
// comments. Whatever else YAML allows (flow collections, anchors, aliases,
// tags, block scalars, escapes, multi-line scalars, trailing comments,
// tabs, CRs, non-ASCII text, complex keys, keys with colons or spaces)
// sets bad, and the caller falls back to the full parser. Within that
// subset it reads exactly what yaml.v3 reads, which the differential
// fuzz target FuzzFastDecode checks. (JSON, kubectl -o json's layout, is
// jsonReader's; see reader for how the two share the decoding.) A vMap
// or vSeq it finds is at column value.ind, and the current line is its
// first line.
type block struct {
	src []byte
	// cur is the offset of the current line's content: after its
	// indentation, or after a sequence entry's "- ".
	cur int
	// end is the offset of the current line's end (its '\n' or the end of
	// src).
	end int
	// ind is the column of cur; -1 past the last line.
	ind int
	bad bool
}

// fail marks the input as outside the subset and returns false.
func (p *block) fail() bool {
	p.bad = true
	p.ind = -1
	return false
}

// object reads raw as one object, a document or the one entry of a block
// sequence, with read given its mapping; it reports whether read accepted
// it and nothing followed.
func (p *block) object(raw []byte, read func(v value) bool) bool {
	p.start(raw)
	if p.bad || p.ind < 0 {
		return false
	}
	ok := false
	if isDash(p.line()) {
		entries := 0
		ok = p.sequence(value{kind: vSeq, ind: p.ind}, func(v value) bool {
			entries++
			return entries == 1 && v.kind == vMap && read(v)
		})
	} else if p.ind == 0 {
		ok = read(value{kind: vMap, ind: 0})
	}
	return ok && !p.bad && p.ind < 0
}

// start positions the reader on the first content line of src.
func (p *block) start(src []byte) {
	p.src = src
	p.end = -1
	p.advance()
}

// advance moves to the next line that is not blank or a comment.
func (p *block) advance() {
	if p.bad {
		return
	}
	src := p.src
	start := p.end + 1
	for start < len(src) {
		e := bytes.IndexByte(src[start:], '\n')
		if e < 0 {
			e = len(src)
		} else {
			e += start
		}
		i := start
		for i < e && src[i] == ' ' {
			i++
		}
		if i == e {
			start = e + 1
			continue
		}
		if src[i] == '#' {
			// A whole-line comment; YAML breaks lines at CR, NEL, LS and
			// PS too, so a comment holding one is not read as a comment.
			for _, c := range src[i:e] {
				if (c < 0x20 && c != '\t') || c > 0x7e {
					p.fail()
					return
				}
			}
			start = e + 1
			continue
		}
		p.cur, p.end, p.ind = i, e, i-start
		return
	}
	p.cur, p.end, p.ind = len(src), len(src), -1
}

// line is the current line's content.
func (p *block) line() []byte { return p.src[p.cur:p.end] }

// isIndicator reports the characters a plain scalar may not start with
// (some may when followed by a non-space; this reader does not try).
func isIndicator(c byte) bool {
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return true
	}
	return false
}

// key reads "key:" at the start of the current line; after is the offset
// past the colon.
func (p *block) key() (k []byte, after int, ok bool) {
	s := p.line()
	if len(s) == 0 {
		return nil, 0, false
	}
	i := 0
	switch q := s[0]; q {
	case '"', '\'':
		j := bytes.IndexByte(s[1:], q)
		if j < 0 {
			return nil, 0, false
		}
		k = s[1 : 1+j]
		if !quotedText(k, q) {
			return nil, 0, false
		}
		i = 2 + j
		if i >= len(s) || s[i] != ':' {
			return nil, 0, false
		}
	default:
		if isIndicator(q) {
			return nil, 0, false
		}
		for ; i < len(s); i++ {
			c := s[i]
			if c == ':' {
				if i+1 == len(s) || s[i+1] == ' ' {
					break
				}
				continue // a colon inside a plain key (managedFields' f:labels)
			}
			if c <= ' ' || c > 0x7e {
				return nil, 0, false
			}
		}
		if i == len(s) {
			return nil, 0, false
		}
		k = s[:i]
		if bytes.HasPrefix(k, []byte("...")) || (len(k) == 2 && k[0] == '<' && k[1] == '<') {
			return nil, 0, false
		}
		if len(k) <= 3 && yamlstrict.IsYAML11Bool(string(k)) {
			// A key kubectl and Helm send as "true" or "false": the
			// general path reports it (yamlstrict's storedKey).
			return nil, 0, false
		}
	}
	if len(k) > maxKeyLen {
		return nil, 0, false
	}
	i++
	if i < len(s) && s[i] != ' ' {
		return nil, 0, false
	}
	return k, p.cur + i, true
}

// quotedText accepts the text between quotes q when it is printable ASCII
// with no escapes: a backslash in double quotes, the quote itself.
func quotedText(t []byte, q byte) bool {
	for _, c := range t {
		if c < ' ' || c > 0x7e || c == q || (q == '"' && c == '\\') {
			return false
		}
	}
	return true
}

// plainText accepts a one-line plain scalar in block context.
func plainText(t []byte) bool {
	if len(t) == 0 || isIndicator(t[0]) || t[len(t)-1] == ' ' || t[len(t)-1] == ':' {
		return false
	}
	if len(t) >= 3 && (t[0] == '.' && t[1] == '.' && t[2] == '.') {
		return false
	}
	for i, c := range t {
		if c < ' ' || c > 0x7e {
			return false
		}
		if c == ' ' && i+1 < len(t) && t[i+1] == '#' {
			return false
		}
		if c == ':' && i+1 < len(t) && t[i+1] == ' ' {
			return false
		}
	}
	return true
}

// token reads a value that fills the rest of the line from off: {} or [],
// a quoted scalar or a plain scalar. It then moves to the next line.
func (p *block) token(off int) (value, bool) {
	t := p.src[off:p.end]
	var v value
	switch {
	case len(t) == 2 && t[0] == '{' && t[1] == '}':
		v.kind = vEmptyMap
	case len(t) == 2 && t[0] == '[' && t[1] == ']':
		v.kind = vEmptySeq
	case t[0] == '"' || t[0] == '\'':
		if len(t) < 2 || t[len(t)-1] != t[0] || !quotedText(t[1:len(t)-1], t[0]) {
			return v, p.fail()
		}
		v.kind, v.quoted, v.tok = vScalar, true, t[1:len(t)-1]
	default:
		if !plainText(t) {
			return v, p.fail()
		}
		v.kind, v.tok = vScalar, t
	}
	p.advance()
	return v, !p.bad
}

// value reads the value of a mapping entry at column ind whose key ends
// at after.
func (p *block) value(ind, after int) (value, bool) {
	i := after
	for i < p.end && p.src[i] == ' ' {
		i++
	}
	if i < p.end {
		if p.src[i] == '#' {
			return value{}, p.fail()
		}
		return p.token(i)
	}
	p.advance()
	switch {
	case p.bad:
		return value{}, false
	case p.ind < ind:
		return value{kind: vNull}, true
	case p.ind == ind:
		if isDash(p.line()) {
			return value{kind: vSeq, ind: ind}, true
		}
		return value{kind: vNull}, true
	}
	l := p.line()
	switch {
	case isDash(l):
		return value{kind: vSeq, ind: p.ind}, true
	case len(l) == 2 && (l[0] == '{' && l[1] == '}' || l[0] == '[' && l[1] == ']'):
		return p.token(p.cur)
	}
	return value{kind: vMap, ind: p.ind}, true
}

// isDash recognises a sequence entry: "-" and a space.
func isDash(l []byte) bool {
	return len(l) >= 2 && l[0] == '-' && l[1] == ' '
}

// mapping reads the block mapping m, calling each for every entry; each
// must consume the value (see skip). It stops at the first line of a
// lesser column than m's.
func (p *block) mapping(m value, each func(k []byte, v value) bool) bool {
	if m.kind != vMap {
		return p.fail()
	}
	ind := m.ind
	for p.ind == ind {
		k, after, ok := p.key()
		if !ok {
			return p.fail()
		}
		v, ok := p.value(ind, after)
		if !ok || !each(k, v) || p.bad {
			return p.fail()
		}
		if p.ind > ind {
			return p.fail()
		}
	}
	return !p.bad
}

// sequence reads the block sequence seq, calling each for every entry;
// each must consume the value.
func (p *block) sequence(seq value, each func(v value) bool) bool {
	if seq.kind != vSeq {
		return p.fail()
	}
	ind := seq.ind
	for p.ind == ind && isDash(p.line()) {
		j := p.cur + 2
		for j < p.end && p.src[j] == ' ' {
			j++
		}
		if j == p.end {
			return p.fail()
		}
		p.ind += j - p.cur
		p.cur = j
		var v value
		l := p.line()
		if isDash(l) {
			return p.fail() // a sequence in a sequence
		}
		if _, _, isKey := p.key(); isKey {
			v = value{kind: vMap, ind: p.ind}
		} else {
			var ok bool
			if v, ok = p.token(p.cur); !ok {
				return false
			}
		}
		if !each(v) || p.bad {
			return p.fail()
		}
		if p.ind > ind {
			return p.fail()
		}
	}
	return !p.bad
}

// skip consumes a value without decoding it, checking only that it is in
// the subset and that no mapping in it gives a key twice (the general
// path refuses such an item, so the fast one must not read it).
func (p *block) skip(v value, depth int) bool {
	if depth > maxBlockDepth {
		return p.fail()
	}
	switch v.kind {
	case vMap:
		var keys distinctKeys
		return p.mapping(v, func(k []byte, sub value) bool { return keys.add(k) && p.skip(sub, depth+1) })
	case vSeq:
		return p.sequence(v, func(sub value) bool { return p.skip(sub, depth+1) })
	}
	return true
}

// entries counts the lines at v's column from the current line to the
// first line at a lesser column: the size of the mapping there, as a hint
// for allocating it.
func (p *block) entries(v value) int {
	ind := v.ind
	n := 1
	src := p.src
	for start := p.end + 1; start < len(src) && n < 1<<16; {
		e := bytes.IndexByte(src[start:], '\n')
		if e < 0 {
			e = len(src)
		} else {
			e += start
		}
		i := start
		for i < e && src[i] == ' ' {
			i++
		}
		switch {
		case i == e:
		case i-start < ind:
			return n
		case i-start == ind:
			n++
		}
		start = e + 1
	}
	return n
}
