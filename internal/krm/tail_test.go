package krm

import (
	"bytes"
	"strings"
	"testing"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"
)

// tailOf makes n items {n: i} as a tail, recording in made how many have
// been made when each is yielded.
func tailOf(n int, made *[]int) func(yield func(*yaml.Node, []byte) error) error {
	return func(yield func(*yaml.Node, []byte) error) error {
		for i := range n {
			*made = append(*made, i)
			if err := yield(MapNode(map[string]string{"k": string(rune('0' + i))}), nil); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestTailIsWrittenAfterTheItemsAndBeforeTheResults checks the three
// writers: the tail follows the items, and the results, made by WriteThen's
// function, see every tail item already made.
func TestTailIsWrittenAfterTheItemsAndBeforeTheResults(t *testing.T) {
	const results = "results:\n  - message: made 2\n    severity: info\n"
	cases := map[string]struct{ in, want string }{
		"block list (streamed)": {listHeader + "items:\n- a: 1\n",
			listHeader + "items:\n- a: 1\n- k: \"0\"\n- k: \"1\"\n" + results},
		"empty flow items (parsed whole)": {listHeader + "items: []\n",
			listHeader + "items:\n  - k: \"0\"\n  - k: \"1\"\n" + results},
		"flow list (parsed whole)": {"{apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [{a: 1}]}",
			listHeader + "items:\n  - {a: 1}\n  - k: \"0\"\n  - k: \"1\"\n" + results},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rl, err := Read([]byte(c.in), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var made []int
			rl.SetTail(tailOf(2, &made))
			var out bytes.Buffer
			err = rl.WriteThen(&out, func() []*sdk.Result {
				return []*sdk.Result{{Severity: sdk.Info, Message: "made " + string(rune('0'+len(made)))}}
			})
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != c.want {
				t.Errorf("output:\n%s\nwant:\n%s", out.String(), c.want)
			}
		})
	}
}

// TestTailStreamsOnBlockLists checks that on a block list each tail item
// is written before the next is made: the writer's buffer, not a list of
// trees, is all that holds them.
func TestTailStreamsOnBlockLists(t *testing.T) {
	rl, err := Read([]byte(listHeader+"items:\n- a: 1\n"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var made []int
	rl.SetTail(tailOf(3, &made))
	if err := writeList(rl, &bytes.Buffer{}, nil); err != nil {
		t.Fatal(err)
	}
	if len(rl.Items) != 1 {
		t.Errorf("the tail was appended to Items (%d items): it should have been written and let go", len(rl.Items))
	}
}

// TestTailErrorStopsTheWrite checks that a failing write reaches the
// tail's maker, which stops, and the caller.
func TestTailErrorStopsTheWrite(t *testing.T) {
	rl, err := Read([]byte(listHeader+"items:\n- a: 1\n"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var made []int
	rl.SetTail(tailOf(3, &made))
	err = writeList(rl, failingWriter{}, nil)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("error %v, want the writer's", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

var errDiskFull = &writeError{"disk full"}

type writeError struct{ s string }

func (e *writeError) Error() string { return e.s }
