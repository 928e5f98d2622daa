package master

import (
	"fmt"
	"testing"
)

// TestShardHashIsTheDocumentedOne pins the node-to-shard hash: README.md
// documents FNV-1a 32-bit modulo N with these examples, and every process
// of a fan-out must agree on it whatever its nfd-fn version. The hashes
// in the comments come from a separate implementation of FNV-1a (offset
// basis 2166136261, prime 16777619, xor then multiply, per byte).
func TestShardHashIsTheDocumentedOne(t *testing.T) {
	for _, c := range []struct {
		node  string
		count int
		want  int
	}{
		{"worker-00000", 4, 2}, // FNV-1a-32 = 4043408954
		{"worker-00001", 4, 1}, // 4060186573
		{"gpu-node-1", 3, 0},   // 3755410302
		{"", 4, 1},             // FNV-1a's offset basis, 2166136261, is 1 mod 4
	} {
		if got := ShardOf(c.node, c.count); got != c.want {
			t.Errorf("ShardOf(%q, %d) = %d, want %d", c.node, c.count, got, c.want)
		}
	}
}

// TestEveryNodeIsInExactlyOneShard checks that the shards of N partition
// any set of names.
func TestEveryNodeIsInExactlyOneShard(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		for i := range 500 {
			name := fmt.Sprintf("node-%d", i)
			holders := 0
			for s := range n {
				if (Shard{Index: s, Count: n}).Holds(name) {
					holders++
				}
			}
			if holders != 1 {
				t.Fatalf("%s is held by %d of %d shards", name, holders, n)
			}
		}
	}
}

func TestParseShardAcceptsOnlyIOverN(t *testing.T) {
	for in, want := range map[string]Shard{"0/1": {0, 1}, "3/4": {3, 4}, " 1/2 ": {1, 2}} {
		got, err := ParseShard(in)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "4/4", "-1/4", "0/0", "a/b", "1/2/3"} {
		if _, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q) accepted", in)
		}
	}
}
