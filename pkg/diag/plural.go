package diag

import "fmt"

// Plural counts n of word in the messages and summaries nfd-fn writes:
// "1 error", "3 errors".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
