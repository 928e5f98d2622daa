package krm

import (
	"bufio"
	"bytes"

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
func (rl *ResourceList) Streams() bool { return rl.fast && !rl.json }

// SetMaker gives the list an ItemMaker; the list must stream.
func (rl *ResourceList) SetMaker(m *ItemMaker) {
	if !rl.Streams() {
		panic("krm: SetMaker on a list that does not stream")
	}
	rl.maker = m
}

// EncodeItem is the output text of n as an item of the list: what the
// list writes for it, changed to n (it is nil for a new item). An item
// read from a file gets its path and index annotations on n.
func (rl *ResourceList) EncodeItem(it *Item, n *yaml.Node) ([]byte, error) {
	var raw []byte
	if it != nil {
		raw = it.Raw
		if it.fromFile {
			annotatePlace(n, it.File, it.Index)
		}
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := writeSeqItem(w, n, rl.sp.indent, compactSequences(raw)); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// made is one made item.
type made struct {
	text []byte
	note any
	err  error
}

// writeMade writes the items up to the end of Items, making the maker's
// as it goes; write writes one item that is not made.
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
	if m := rl.maker; m != nil {
		parallel.Ordered(len(m.Items), func(k int) made {
			text, note, err := m.Make(k)
			return made{text, note, err}
		}, func(k int, r made) {
			pos := m.Items[k]
			upTo(pos)
			if firstErr != nil {
				return
			}
			if r.err != nil {
				firstErr = r.err
				return
			}
			if m.Made != nil {
				m.Made(k, r.note)
			}
			next = pos + 1
			it := rl.Items[pos]
			if r.text == nil {
				header()
				firstErr = write(it)
				return
			}
			header()
			w.Write(r.text)
			if rl.release != nil {
				rl.release(it.Raw)
			}
		})
	}
	upTo(len(rl.Items))
	return firstErr
}
