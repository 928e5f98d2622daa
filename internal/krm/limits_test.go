package krm

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const listHeader = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"

// nested is an item of depth levels of flow sequences.
func nested(depth int) string {
	return "- " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n"
}

// aliasing is an item whose one alias reaches n nodes: a sequence of n-1
// scalars.
func aliasing(n int) string {
	return "- a: &x [" + strings.TrimSuffix(strings.Repeat("s,", n-1), ",") + "]\n  b: *x\n"
}

// TestLimitsHoldJustOverAndNotJustUnder reads inputs at each limit and
// one step over it: at the limit the input is read whole; over it, the
// item is left out or the list refused, with an error naming the limit.
func TestLimitsHoldJustOverAndNotJustUnder(t *testing.T) {
	twoItems := listHeader + "items:\n- a: 1\n- b: 2\n"
	anchorAcross := listHeader + "items:\n- &x {a: 1}\n- *x\n"
	cases := []struct {
		name    string
		input   string
		limits  Limits
		wantErr string // from Read; "" when Read must succeed
		broken  string // ParseErr of the only broken item; "" for none
	}{
		{"bytes-at-limit", twoItems, Limits{MaxBytes: len(twoItems)}, "", ""},
		{"bytes-over-limit", twoItems, Limits{MaxBytes: len(twoItems) - 1}, "more than " + fmt.Sprint(len(twoItems)-1), ""},
		{"items-at-limit", twoItems, Limits{MaxItems: 2}, "", ""},
		{"items-over-limit", twoItems, Limits{MaxItems: 1}, "2 items, more than 1", ""},
		{"json-items-over-limit", `{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{},{}]}`, Limits{MaxItems: 1}, "2 items, more than 1", ""},
		{"depth-at-default-limit", listHeader + "items:\n" + nested(DefaultMaxDepth), Limits{}, "", ""},
		{"depth-over-default-limit", listHeader + "items:\n" + nested(DefaultMaxDepth+1), Limits{}, "", "nested deeper than 1000 levels"},
		{"aliases-at-default-limit", listHeader + "items:\n" + aliasing(DefaultMaxAliasNodes), Limits{}, "", ""},
		{"aliases-over-default-limit", listHeader + "items:\n" + aliasing(DefaultMaxAliasNodes+1), Limits{}, "", "aliases expand to more than 100000 nodes"},
		{"function-config-aliases-over-limit", listHeader + "functionConfig:\n  a: &x [s, s]\n  b: *x\nitems: []\n", Limits{MaxAliasNodes: 2}, "functionConfig: over a limit", ""},
		{"fallback-at-limit", anchorAcross, Limits{MaxFallbackBytes: len(anchorAcross)}, "", ""},
		{"fallback-over-limit", anchorAcross, Limits{MaxFallbackBytes: len(anchorAcross) - 1}, "", "unknown anchor 'x'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rl, err := Read([]byte(c.input), ReadOptions{Limits: c.limits})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.Is(err, ErrLimit) {
					t.Fatalf("error = %v, want a limit error containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var broken []string
			for _, it := range rl.Items {
				if it.ParseErr != nil {
					broken = append(broken, it.ParseErr.Error())
				}
			}
			switch {
			case c.broken == "" && len(broken) > 0:
				t.Errorf("items left out: %v", broken)
			case c.broken != "" && (len(broken) != 1 || !strings.Contains(broken[0], c.broken)):
				t.Errorf("items left out: %v, want one saying %q", broken, c.broken)
			}
		})
	}
}

// TestReadInputStopsAtItsLimit checks that stdin is not read past the cap.
func TestReadInputStopsAtItsLimit(t *testing.T) {
	for _, c := range []struct {
		name  string
		limit int
		ok    bool
	}{{"at-limit", 5, true}, {"over-limit", 4, false}} {
		t.Run(c.name, func(t *testing.T) {
			data, err := ReadInput(strings.NewReader("12345"), c.limit)
			if c.ok != (err == nil) || (c.ok && string(data) != "12345") || (!c.ok && !errors.Is(err, ErrLimit)) {
				t.Errorf("ReadInput = %q, %v", data, err)
			}
		})
	}
}
