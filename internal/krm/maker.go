package krm

import (
	"bufio"
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
)

// ItemMaker makes the output text of some of the list's items only as
// the list is written, several at a time on a worker pool, so that their
// trees (thousands of exported Nodes, each patched) are never all held at
// once. Only lists that stream (Streams) take one.
type ItemMaker struct {
	// Items are the positions in Items of the items made, increasing.
	Items []int
	// Make makes the k-th item's output text on a worker goroutine: a
	// block sequence entry at the list's indentation (EncodeItem), or nil
	// to write the item as it was. note is handed to Made.
	Make func(k int) (text []byte, note any, err error)
	// Made, when set, is called on the writing goroutine, in order, just
	// before the k-th item is written.
	Made func(k int, note any)
}

// Streams reports whether the list is written as it is read (block YAML
// cut by the fast splitter): only such a list takes an ItemMaker or
// writes its tail as it is made.
func (rl *ResourceList) Streams() bool { return rl.fast }

// SetMaker gives the list an ItemMaker; the list must stream.
func (rl *ResourceList) SetMaker(m *ItemMaker) {
	if !rl.Streams() {
		panic("krm: SetMaker on a list that does not stream")
	}
	rl.maker = m
	for _, pos := range m.Items {
		rl.Items[pos].made = true
	}
}

// EncodeItem is the output text of n as an item of the list: what the
// list writes for it, changed to n (it is nil for a new item). An item
// read from a file gets its path and index annotations on n.
func (rl *ResourceList) EncodeItem(it *Item, n *yaml.Node) ([]byte, error) {
	if rl.json {
		return rl.jsonTreeText(it, n)
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := rl.writeEncoded(w, it, n); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeEncoded writes n as the entry of a block list cut by the splitter
// for item it (nil for a new item): with its path and index annotations
// when it was read from a file, its sequences in the style of its text.
func (rl *ResourceList) writeEncoded(w *bufio.Writer, it *Item, n *yaml.Node) error {
	var raw []byte
	if it != nil {
		if !it.json {
			raw = it.Raw // JSON text says nothing of YAML's sequence style
		}
		if it.fromFile {
			annotatePlace(n, it.File, it.Index)
		}
	}
	return writeSeqItem(w, n, rl.sp.indent, compactSequences(raw))
}

// made is one made item: its text (nil to write the item as it is), the
// maker's note and k, its index among the maker's items (-1 for none).
type made struct {
	// text, then tail (a slice of the input, not copied), is the output.
	text, tail []byte
	note       any
	k          int
	err        error
}

// writeMade writes the items up to the end of Items, making some on the
// worker pool as it goes (the maker's; with a list read from files, every
// item, whose placed text is made there); write writes one item that is
// not made.
func (rl *ResourceList) writeMade(w *bufio.Writer, header func(), write func(*Item) error) error {
	next := 0
	var firstErr error
	upTo := func(pos int) {
		for ; next < pos && firstErr == nil; next++ {
			if it := rl.Items[next]; it.written() {
				header()
				firstErr = write(it)
			}
		}
	}
	work, k := rl.madeItems()
	parallel.Ordered(len(work), func(j int) made {
		return rl.makeItem(work[j], k[j])
	}, func(j int, r made) {
		pos := work[j]
		upTo(pos)
		if firstErr != nil {
			return
		}
		next = pos + 1
		it := rl.Items[pos]
		switch {
		case r.err != nil:
			firstErr = r.err
		case r.k >= 0 && rl.maker.Made != nil:
			rl.maker.Made(r.k, r.note)
		}
		if firstErr != nil || !it.written() {
			return
		}
		header()
		if r.text == nil {
			firstErr = write(it)
			return
		}
		w.Write(r.text)
		w.Write(r.tail)
		if rl.release != nil {
			rl.release(it.Raw)
		}
	})
	upTo(len(rl.Items))
	return firstErr
}

// madeItems are the positions of the items made on the workers, in
// order, each with its index among the maker's items (or -1).
func (rl *ResourceList) madeItems() (pos, k []int) {
	m := rl.maker
	if !rl.fromFiles && !rl.json {
		if m == nil {
			return nil, nil
		}
		k = make([]int, len(m.Items))
		for i := range k {
			k[i] = i
		}
		return m.Items, k
	}
	pos, k = make([]int, len(rl.Items)), make([]int, len(rl.Items))
	for i := range pos {
		pos[i], k[i] = i, -1
	}
	if m != nil {
		for i, p := range m.Items {
			k[p] = i
		}
	}
	return pos, k
}

// makeItem makes the text of the item at pos on a worker: the maker's
// (k >= 0), or the placed text of an unchanged item read from a file.
func (rl *ResourceList) makeItem(pos, k int) made {
	if k >= 0 {
		text, note, err := rl.maker.Make(k)
		return made{text: text, note: note, k: k, err: err}
	}
	it := rl.Items[pos]
	s := it.State()
	if s != StateRaw || !it.written() {
		return made{k: -1} // a tree is written by write
	}
	var text []byte
	var err error
	switch rl.output(it, s) {
	case outJSON:
		text, err = rl.jsonItemText(it)
	case outPlaced:
		if len(it.Raw) >= bigItem {
			return made{k: -1} // written by write, as it is placed
		}
		if p, ok := rl.placed(it); ok {
			head, tail := p.split()
			return made{text: head, tail: tail, k: -1}
		}
		text, err = rl.treeText(it)
	default:
		return made{k: -1}
	}
	if err != nil {
		err = fmt.Errorf("writing %s: %w", it.describe(), err)
	}
	return made{text: text, k: -1, err: err}
}
