// Package suggest finds the likely intended word for a misspelt one.
package suggest

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxWordLength caps, in bytes, the words Closest compares: a word or a
// candidate longer than this gets no suggestion and is not compared. Every
// name nfd-fn suggests (fields, operators, features, gates, settings) is
// far shorter, and a misspelt key from the input can be megabytes long;
// the cap keeps one suggestion at O(MaxWordLength²) per candidate.
const MaxWordLength = 256

// Closest returns the candidate nearest to word when it is near enough to
// be a likely misspelling: a case-insensitive match, or an edit distance of
// at most a third of the word's length (and at most 3). Ties go to the
// alphabetically first candidate; "" means no candidate is close. Words
// and candidates longer than MaxWordLength are not compared, nor are
// candidates whose length differs from the word's by more than the
// distance allowed (they cannot be near enough).
func Closest(word string, candidates []string) string {
	if len(word) > MaxWordLength {
		return ""
	}
	sorted := make([]string, 0, len(candidates))
	for _, c := range candidates {
		if len(c) <= MaxWordLength {
			sorted = append(sorted, c)
		}
	}
	sort.Strings(sorted)
	lw := strings.ToLower(word)
	for _, c := range sorted {
		if strings.ToLower(c) == lw && c != word {
			return c
		}
	}
	limit := min(3, max(1, len(word)/3))
	n := utf8.RuneCountInString(lw)
	best, bestDist := "", limit+1
	for _, c := range sorted {
		lc := strings.ToLower(c)
		if c == word || abs(utf8.RuneCountInString(lc)-n) > limit {
			continue
		}
		if d := editDistance(lw, lc); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Levenshtein distance between a and b, counting an
// adjacent transposition as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
