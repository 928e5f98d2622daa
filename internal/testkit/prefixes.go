package testkit

// CutTo cuts each of got to the length of the same entry of want, so that
// a test's want may give only how each line starts; got is returned as it
// is when the counts differ, and nil when both are empty.
func CutTo(got, want []string) []string {
	if len(got) == 0 {
		return nil
	}
	if len(got) != len(want) {
		return got
	}
	out := make([]string, len(got))
	for i := range got {
		out[i] = got[i][:min(len(got[i]), len(want[i]))]
	}
	return out
}
