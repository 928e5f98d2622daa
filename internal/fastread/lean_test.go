package fastread

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// testInput is an Input that counts releases and can be closed.
type testInput struct {
	released int
	closed   bool
	held     int
}

var errTestClosed = errors.New("closed")

func (in *testInput) Hold() error {
	if in.closed {
		return errTestClosed
	}
	in.held++
	return nil
}

func (in *testInput) Unhold()          { in.held-- }
func (in *testInput) Release(b []byte) { in.released++ }

// TestLeanLoadAfterItsInputIsClosedIsAnError reads a lean NodeFeature
// whose input is then closed: Load names the object and the cause, and
// reads nothing (no hold left, nothing released).
func TestLeanLoadAfterItsInputIsClosedIsAnError(t *testing.T) {
	in := &testInput{}
	d, ok := DecodeLean([]byte(entry(kubectlNodeFeature, 0)), nil, in)
	if !ok {
		t.Fatal("DecodeLean fell back")
	}
	in.closed = true
	spec, err := d.Obj.(*objects.LeanNodeFeature).Load(nil)
	if spec != nil || !errors.Is(err, errTestClosed) || !strings.Contains(err.Error(), "NodeFeature ") {
		t.Errorf("Load after close = %v, %v; want an error naming the NodeFeature", spec, err)
	}
	if in.held != 0 || in.released != 0 {
		t.Errorf("held %d, released %d times after close; want neither", in.held, in.released)
	}
}

// TestLeanLoadOfAMappedFileClosedIsAnErrorNotAFault maps a file large
// enough to be mapped (krm.OpenFile), reads a lean NodeFeature from it
// and closes it: Load returns krm.ErrClosed instead of touching the
// unmapped pages.
func TestLeanLoadOfAMappedFileClosedIsAnErrorNotAFault(t *testing.T) {
	doc := entry(kubectlNodeFeature, 0)
	path := t.TempDir() + "/nf.yaml"
	padded := doc + strings.Repeat("#"+strings.Repeat(" ", 99)+"\n", 1<<10) // over krm's mapping threshold
	if err := os.WriteFile(path, []byte(padded), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := krm.OpenFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := DecodeLean(in.Data[:len(doc)], nil, in)
	if !ok {
		t.Fatal("DecodeLean fell back")
	}
	lean := d.Obj.(*objects.LeanNodeFeature)
	if _, err := lean.Load(nil); err != nil {
		t.Fatalf("Load before close: %v", err)
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := lean.Load(nil); !errors.Is(err, krm.ErrClosed) {
		t.Errorf("Load after close = %v, want krm.ErrClosed", err)
	}
}

// TestLeanLoadOfTextThatChangedIsAnError changes a lean NodeFeature's
// text after it was read: Load says so instead of panicking.
func TestLeanLoadOfTextThatChangedIsAnError(t *testing.T) {
	raw := []byte(entry(kubectlNodeFeature, 0))
	d, ok := DecodeLean(raw, nil, nil)
	if !ok {
		t.Fatal("DecodeLean fell back")
	}
	copy(raw[strings.Index(string(raw), "kind: NodeFeature"):], "kind: NodeFeaturX")
	if _, err := d.Obj.(*objects.LeanNodeFeature).Load(nil); !errors.Is(err, errTextChanged) {
		t.Errorf("Load of changed text = %v, want errTextChanged", err)
	}
}
