package diag

import "testing"

func TestPluralCountsOneApart(t *testing.T) {
	for n, want := range map[int]string{0: "0 errors", 1: "1 error", 2: "2 errors", 20: "20 errors"} {
		if got := Plural(n, "error"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}
