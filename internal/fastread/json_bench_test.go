package fastread

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// BenchmarkJSONReader reads the fleet-sized NodeFeature as an item of
// kubectl get -o json's List with jsonReader and, for comparison, with
// jsontext's Decoder doing only part of the reader's work (see
// jsonReader for why it is not used):
//
//   - lean: DecodeLean, what nfd-fn does with a fleet's items;
//   - skip: jsonReader reading every token, keys given twice refused;
//   - jsontext: every token, keys given twice refused, and the string
//     checks yaml.v3 needs on top (textRune), but nothing decoded;
//   - jsontext-any-keys: the same with keys given twice not refused.
func BenchmarkJSONReader(b *testing.B) {
	item := []byte(kubectlItem(b, string(workerNode(b))))
	b.Run("lean", func(b *testing.B) {
		b.SetBytes(int64(len(item)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := DecodeLean(item, nil, nil); !ok {
				b.Fatal("fell back")
			}
		}
	})
	b.Run("skip", func(b *testing.B) {
		b.SetBytes(int64(len(item)))
		b.ReportAllocs()
		var r jsonReader
		for b.Loop() {
			if !r.object(item, func(v value) bool { return r.skip(v, 1) }) {
				b.Fatal("fell back")
			}
		}
	})
	for _, tc := range []struct {
		name string
		opts []jsontext.Options
	}{{"jsontext", nil}, {"jsontext-any-keys", []jsontext.Options{jsontext.AllowDuplicateNames(true)}}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(item)))
			b.ReportAllocs()
			dec := jsontext.NewDecoder(bytes.NewBuffer(nil))
			for b.Loop() {
				dec.Reset(bytes.NewBuffer(item), tc.opts...)
				if !jsontextTokens(dec) {
					b.Fatal("refused")
				}
			}
		})
	}
}

// jsontextTokens reads every token from dec, checking each string's
// characters as jsonReader does, and reports whether all were read.
func jsontextTokens(dec *jsontext.Decoder) bool {
	for {
		switch dec.PeekKind() {
		case 0:
			_, err := dec.ReadToken()
			return err != nil && dec.StackDepth() == 0
		case '{', '}', '[', ']':
			if _, err := dec.ReadToken(); err != nil {
				return false
			}
			continue
		}
		v, err := dec.ReadValue()
		if err != nil {
			return false
		}
		if v[0] != '"' {
			continue
		}
		for i := 1; i < len(v)-1; {
			if strByte[v[i]] {
				i++
				continue
			}
			n := textRune(v[i:])
			if n == 0 {
				return false
			}
			i += n
		}
	}
}
