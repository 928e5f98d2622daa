// Package suggest finds the likely intended word for a misspelt one.
package suggest

import (
	"sort"
	"strings"
)

// Closest returns the candidate nearest to word when it is near enough to
// be a likely misspelling: a case-insensitive match, or an edit distance of
// at most a third of the word's length (and at most 3). Ties go to the
// alphabetically first candidate; "" means no candidate is close.
func Closest(word string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	lw := strings.ToLower(word)
	for _, c := range sorted {
		if strings.ToLower(c) == lw && c != word {
			return c
		}
	}
	limit := min(3, max(1, len(word)/3))
	best, bestDist := "", limit+1
	for _, c := range sorted {
		if c == word {
			continue
		}
		if d := editDistance(lw, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
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
