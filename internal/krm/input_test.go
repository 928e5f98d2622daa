package krm

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// bigList is a ResourceList of n items, large enough to span many pages.
func bigList(n int) []byte {
	var b bytes.Buffer
	b.WriteString(listHeader + "items:\n")
	for i := range n {
		b.WriteString("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm\n  data:\n    k: \"" + strings.Repeat("x", 1000+i%7) + "\"\n")
	}
	return b.Bytes()
}

func writeTemp(t *testing.T, data []byte) *os.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "list.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestOpenInputGivesTheBytesOfEveryKindOfReader checks a regular file
// (mapped), a pipe-like reader (spooled, then mapped) and an empty file:
// each gives the input's bytes, which stay readable after Release.
func TestOpenInputGivesTheBytesOfEveryKindOfReader(t *testing.T) {
	data := bigList(300)
	cases := map[string]struct {
		r      func(t *testing.T) io.Reader
		want   []byte
		mapped bool
	}{
		"regular file": {func(t *testing.T) io.Reader { return writeTemp(t, data) }, data, runtime.GOOS != "windows"},
		"pipe":         {func(t *testing.T) io.Reader { return bytes.NewReader(data) }, data, runtime.GOOS != "windows"},
		"empty file":   {func(t *testing.T) io.Reader { return writeTemp(t, nil) }, nil, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			in, err := OpenInput(c.r(t), 0)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if in.mapped != c.mapped {
				t.Errorf("mapped = %v, want %v", in.mapped, c.mapped)
			}
			if !bytes.Equal(in.Data, c.want) {
				t.Fatalf("got %d bytes, want %d", len(in.Data), len(c.want))
			}
			in.Release(in.Data[len(in.Data)/3 : len(in.Data)/2])
			in.Release(in.Data)
			if !bytes.Equal(in.Data, c.want) {
				t.Errorf("bytes changed after Release")
			}
		})
	}
}

// TestOpenInputRefusesMoreThanTheLimit checks the size limit for a mapped
// file and for a spooled pipe.
func TestOpenInputRefusesMoreThanTheLimit(t *testing.T) {
	data := bigList(10)
	for name, r := range map[string]func() io.Reader{
		"regular file": func() io.Reader { return writeTemp(t, data) },
		"pipe":         func() io.Reader { return bytes.NewReader(data) },
	} {
		_, err := OpenInput(r(), len(data)-1)
		if !errors.Is(err, ErrLimit) {
			t.Errorf("%s: error %v, want ErrLimit", name, err)
		}
	}
}

// TestMappedInputReadsLikeBytesWhileReleasing reads and writes a list
// from a mapped input with Release told of everything as it goes (pages
// given back mid-read are read again): the output is the one an in-memory
// input gives.
func TestMappedInputReadsLikeBytesWhileReleasing(t *testing.T) {
	data := bigList(3000) // > sweepBytes, so sweeps happen too
	in, err := OpenInput(writeTemp(t, data), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	write := func(input []byte, release func([]byte)) string {
		rl, err := Read(input, ReadOptions{Release: release})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := writeList(rl, &out, nil); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got, want := write(in.Data, in.Release), write(data, nil); got != want {
		t.Errorf("mapped input wrote %d bytes, in-memory %d", len(got), len(want))
	}
}
