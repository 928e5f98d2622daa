package master

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard selects the nodes one of Count processes renders, so that a fleet
// too large for one machine is rendered by several (a CI matrix, an
// Indexed Job): node n belongs to shard FNV-1a-32(n) mod Count, the 32-bit
// FNV-1a hash of the node name's bytes. The hash never changes between
// nfd-fn versions: every process of one fan-out, whatever its version,
// agrees on which shard holds which node. The zero Shard holds every node.
type Shard struct {
	// Index is the shard, from 0 to Count-1.
	Index int
	// Count is the number of shards; 0 or 1 is no sharding.
	Count int
}

// ParseShard reads "I/N" (0 <= I < N).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q is not I/N (for example 0/4: the first of four shards)", s)
	}
	if count < 1 || index < 0 || index >= count {
		return Shard{}, fmt.Errorf("shard %q: want 0 <= I < N and N >= 1 (shards are numbered from 0)", s)
	}
	return Shard{Index: index, Count: count}, nil
}

// Sharded reports whether s selects part of the fleet.
func (s Shard) Sharded() bool { return s.Count > 1 }

// Holds reports whether the node named name belongs to s.
func (s Shard) Holds(name string) bool {
	if !s.Sharded() {
		return true
	}
	return ShardOf(name, s.Count) == s.Index
}

// String is "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ShardOf is the shard of count that holds the node named name.
func ShardOf(name string, count int) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % uint32(count))
}

// OnlyShard restricts the pipeline to the nodes s holds and returns the
// names of the others, sorted. It must be called before rendering.
func (p *Pipeline) OnlyShard(s Shard) (others []string) {
	if !s.Sharded() {
		return nil
	}
	kept := p.names[:0:0]
	for _, n := range p.names {
		if s.Holds(n) {
			kept = append(kept, n)
		} else {
			others = append(others, n)
		}
	}
	p.names = kept
	return others
}
