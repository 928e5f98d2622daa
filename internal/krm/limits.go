package krm

import (
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Default limits; the package documentation says why each is where it is.
const (
	// DefaultMaxBytes caps the input: 1 GiB, above a 5,000-node fleet
	// (about 900 MB).
	DefaultMaxBytes = 1 << 30
	// DefaultMaxItems caps the number of items.
	DefaultMaxItems = 1_000_000
	// DefaultMaxDepth caps the nesting of collections in any item or
	// section, aliases expanded.
	DefaultMaxDepth = yamlstrict.MaxDepth
	// DefaultMaxAliasNodes caps, per item or section, the nodes reached
	// through aliases when they are expanded.
	DefaultMaxAliasNodes = yamlstrict.MaxAliasNodes
	// DefaultMaxFallbackBytes caps the block lists that are parsed again
	// whole when an item does not parse on its own.
	DefaultMaxFallbackBytes = 64 << 20
	// DefaultMaxTreeBytes caps the items parsed into a tree.
	DefaultMaxTreeBytes = 64 << 20
)

// ErrLimit is wrapped by every error about a limit being exceeded; it is
// yamlstrict.ErrLimit, so that one errors.Is covers every YAML limit.
var ErrLimit = yamlstrict.ErrLimit

// Limits bound the work Read does on untrusted input. A zero field means
// its default.
type Limits struct {
	// MaxBytes is the largest input read.
	MaxBytes int
	// MaxItems is the largest number of items.
	MaxItems int
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth int
	// MaxAliasNodes is the most nodes an item (or functionConfig) may
	// reach through aliases: a billion-laughs item stops here.
	MaxAliasNodes int
	// MaxFallbackBytes is the largest block list parsed again whole when
	// one of its items does not parse on its own (an alias to an anchor
	// in another item, a quoted string spanning items). Larger lists
	// report such items as broken instead of building a tree of the
	// whole input.
	MaxFallbackBytes int
	// MaxTreeBytes is the largest item parsed into a YAML tree; a larger
	// item that the fast decoders do not read is reported, not parsed (a
	// tree takes about ten times its text).
	MaxTreeBytes int
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxBytes, DefaultMaxBytes)
	def(&l.MaxItems, DefaultMaxItems)
	def(&l.MaxDepth, DefaultMaxDepth)
	def(&l.MaxAliasNodes, DefaultMaxAliasNodes)
	def(&l.MaxFallbackBytes, DefaultMaxFallbackBytes)
	def(&l.MaxTreeBytes, DefaultMaxTreeBytes)
	return l
}

// ReadInput reads all of r, refusing more than limit bytes (DefaultMaxBytes
// when limit is 0) without reading further. A regular file (stdin
// redirected from one) is read into a buffer of its size, not one grown
// by doubling, which would hold up to twice the input at its peak.
func ReadInput(r io.Reader, limit int) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	data := make([]byte, 0, min(sizeHint(r), limit)+1)
	lr := io.LimitReader(r, int64(limit)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := lr.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%w: the input is larger than %d bytes", ErrLimit, limit)
	}
	return data, nil
}

// checkTree applies the depth and alias limits to n
// (yamlstrict.CheckTree, shared with pkg/nova).
func checkTree(n *yaml.Node, l Limits) error {
	return yamlstrict.CheckTree(n, l.MaxDepth, l.MaxAliasNodes)
}

// sizeHint is what is left to read of r when it is a regular file, else 0.
func sizeHint(r io.Reader) int {
	f, ok := r.(*os.File)
	if !ok {
		return 0
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return 0
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil || off > info.Size() {
		return 0
	}
	return int(info.Size() - off)
}
