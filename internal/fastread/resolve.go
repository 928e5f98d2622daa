package fastread

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// plainTag says how yaml.v3 resolves a plain scalar: as null, as a string,
// or as something else (bool, int, float, timestamp, merge), which the
// strict decoder refuses where it expects a string. It follows yaml.v3's
// resolve (go.yaml.in/yaml/v3 resolve.go) step by step.
func plainTag(s []byte) (null, str bool) {
	if len(s) == 0 {
		return true, false
	}
	hint := resolveHint(s[0])
	if hint == 0 {
		return false, true
	}
	switch string(s) {
	case "~", "null", "Null", "NULL":
		return true, false
	case "true", "True", "TRUE", "false", "False", "FALSE",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<":
		return false, false
	}
	switch hint {
	case '.':
		if _, err := strconv.ParseFloat(string(s), 64); err == nil {
			return false, false
		}
	case 'D', 'S':
		return false, !numberOrTime(string(s))
	}
	return false, true
}

func resolveHint(c byte) byte {
	switch {
	case c == '+' || c == '-':
		return 'S'
	case c >= '0' && c <= '9':
		return 'D'
	case c == '.':
		return '.'
	}
	switch c {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~', '<':
		return 'M'
	}
	return 0
}

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// numberOrTime reports whether yaml.v3 reads a plain scalar starting with
// a digit or a sign as a timestamp, an int or a float.
func numberOrTime(in string) bool {
	if isTimestamp(in) {
		return true
	}
	plain := strings.ReplaceAll(in, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if yamlStyleFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	switch {
	case strings.HasPrefix(plain, "0b"):
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return true
		}
	case strings.HasPrefix(plain, "-0b"):
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return true
		}
	}
	switch {
	case strings.HasPrefix(plain, "0o"):
		if _, err := strconv.ParseInt(plain[2:], 8, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(plain[2:], 8, 64); err == nil {
			return true
		}
	case strings.HasPrefix(plain, "-0o"):
		if _, err := strconv.ParseInt("-"+plain[3:], 8, 64); err == nil {
			return true
		}
	}
	return false
}

var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp is yaml.v3's parseTimestamp.
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range timestampFormats {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}
