package krm

import (
	"bufio"
	"errors"
)

// output is how the list writes an item.
type output uint8

const (
	// outAsIs writes Raw as it is: an unchanged item cut from a block list.
	outAsIs output = iota
	// outPlaced writes Raw placed: re-indented as an item, with its path
	// and index annotations (an unchanged object read from a file), or
	// from its tree when its text cannot be placed.
	outPlaced
	// outJSON writes an item of a JSON list (jsonItemText): Raw
	// re-indented when it is unchanged, else its tree as JSON.
	outJSON
	// outEncoded encodes Node as an entry of the block list the splitter
	// cut, in the sequence style of its text (writeEncoded).
	outEncoded
	// outElement encodes Node as an element of a list parsed whole.
	outElement
	// outMade writes the text the list's ItemMaker made.
	outMade
)

// output chooses how the list writes an item in state s, from the state
// and the list's form: the one place the write path is chosen. The
// writers (writeItem on the writing goroutine, makeItem on the worker
// pool, ItemText for text changed by the caller) follow it.
func (rl *ResourceList) output(it *Item, s State) output {
	switch {
	case s == StateMade:
		return outMade
	case rl.json:
		return outJSON
	case s == StateRaw && it.fromFile:
		return outPlaced
	case s == StateRaw:
		return outAsIs
	case rl.fast:
		return outEncoded
	}
	return outElement
}

// errMadeUnmade is a made item reaching a writer without its maker's
// text; writeMade never lets it.
var errMadeUnmade = errors.New("krm: a made item written without its maker")

// writeItem writes an item that is not made (or that its maker left as it
// was) on the writing goroutine, and releases its text once written.
func (rl *ResourceList) writeItem(w *bufio.Writer, it *Item) error {
	switch rl.output(it, it.unmade()) {
	case outAsIs:
		w.Write(withNewline(it.Raw))
	case outPlaced:
		if err := rl.writeFileItem(w, it); err != nil {
			return err
		}
	case outJSON:
		text, err := rl.jsonItemText(it)
		if err != nil {
			return err
		}
		w.Write(text)
	case outEncoded:
		return rl.writeEncoded(w, it, it.Node)
	case outElement:
		return writeElement(w, "items", it.Node)
	case outMade:
		return errMadeUnmade
	}
	if it.Raw != nil && rl.release != nil {
		rl.release(it.Raw)
	}
	return nil
}
