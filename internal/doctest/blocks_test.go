package doctest

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// block is one fenced code block of a page.
type block struct {
	page  string // the page, relative to the repository root
	line  int    // the line of the opening fence
	lang  string // the fence's info string
	lines []string
	dir   string // doctest directive: where the block starts
	exit  int    // doctest directive: the exit code it ends with
}

func (b block) where() string { return b.page + ":" + strconv.Itoa(b.line) }

// shellLangs are the fence languages whose blocks are commands to run.
var shellLangs = map[string]bool{"sh": true, "shell": true, "bash": true}

// directivePrefix starts the comment that configures the next block.
const directivePrefix = "<!-- doctest:"

// readBlocks returns the fenced blocks of a Markdown page. A fence may be
// indented (a block inside a list item); its lines lose that indentation.
func readBlocks(root, rel string) ([]block, error) {
	data, err := os.ReadFile(root + "/" + rel)
	if err != nil {
		return nil, err
	}
	var out []block
	var cur *block
	indent, lastText := "", ""
	for n, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if strings.HasPrefix(trimmed, "```") {
			if cur != nil {
				out = append(out, *cur)
				cur = nil
				continue
			}
			b := block{page: rel, line: n + 1, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
			if strings.HasPrefix(lastText, directivePrefix) {
				if err := b.configure(lastText); err != nil {
					return nil, fmt.Errorf("%s:%d: %w", rel, n, err)
				}
			}
			indent, cur = line[:len(line)-len(trimmed)], &b
			continue
		}
		if cur != nil {
			cur.lines = append(cur.lines, strings.TrimPrefix(line, indent))
			continue
		}
		if strings.TrimSpace(line) != "" {
			lastText = strings.TrimSpace(line)
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: the block is not closed", rel, cur.line)
	}
	return out, nil
}

// configure reads a "<!-- doctest: key=value ... -->" directive.
func (b *block) configure(directive string) error {
	body, ok := strings.CutSuffix(strings.TrimPrefix(directive, directivePrefix), "-->")
	if !ok {
		return fmt.Errorf("the doctest directive does not end with -->")
	}
	for _, kv := range strings.Fields(body) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "dir":
			if v == "" || strings.HasPrefix(v, "/") || strings.Contains(v, "..") {
				return fmt.Errorf("doctest dir=%q: want a directory of the repository, relative to its root", v)
			}
			b.dir = v
		case "exit":
			code, err := strconv.Atoi(v)
			if err != nil || code < 0 || code > 255 {
				return fmt.Errorf("doctest exit=%q: want an exit code", v)
			}
			b.exit = code
		default:
			return fmt.Errorf("doctest directive: unknown key %q (dir, exit)", k)
		}
	}
	return nil
}

// command is one simple command of a block, as the classifier sees it.
type command struct {
	line  int      // line in the page
	text  string   // the logical line it is part of
	words []string // words after leading NAME=value assignments
}

// commands splits a shell block into simple commands: continuation lines
// are joined, comments dropped, and lines split at &&, ||, |, and ;.
// Command substitutions ($(...)) become commands of their own.
func commands(b block) ([]command, error) {
	var out []command
	for i := 0; i < len(b.lines); i++ {
		start := i
		text := b.lines[i]
		for strings.HasSuffix(text, `\`) && i+1 < len(b.lines) {
			i++
			text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(b.lines[i])
		}
		words, err := splitWords(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", b.page, b.line+1+start, err)
		}
		for _, seg := range words {
			if len(seg) == 0 {
				continue
			}
			out = append(out, command{line: b.line + 1 + start, text: strings.TrimSpace(text), words: seg})
		}
	}
	return out, nil
}

// splitWords splits one logical shell line into simple commands and
// their words. It knows single and double quotes, $(...), comments and
// the operators &&, ||, |, ;; it refuses what it cannot follow (backticks,
// here-documents, subshells, unbalanced quotes), so that a block using
// them fails instead of being half-checked.
func splitWords(line string) ([][]string, error) {
	var cmds [][]string
	var words []string
	var word strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCommand := func() {
		flushWord()
		cmds = append(cmds, dropAssignments(words))
		words = nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flushWord()
		case c == '#' && !inWord:
			i = len(line)
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unbalanced ' in %q", line)
			}
			word.WriteString(line[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unbalanced \" in %q", line)
			}
			inner := line[i+1 : i+1+j]
			if sub, ok := substitution(inner); ok {
				subCmds, err := splitWords(sub)
				if err != nil {
					return nil, err
				}
				cmds = append(cmds, subCmds...)
			}
			word.WriteString(inner)
			inWord, i = true, i+1+j
		case c == '$' && i+1 < len(line) && line[i+1] == '(':
			j := strings.IndexByte(line[i:], ')')
			if j < 0 || strings.Contains(line[i+2:i+j], "(") {
				return nil, fmt.Errorf("nested or unbalanced $( in %q", line)
			}
			subCmds, err := splitWords(line[i+2 : i+j])
			if err != nil {
				return nil, err
			}
			cmds = append(cmds, subCmds...)
			word.WriteString(line[i : i+j+1])
			inWord, i = true, i+j
		case c == '&' && i+1 < len(line) && line[i+1] == '&', c == '|' && i+1 < len(line) && line[i+1] == '|':
			endCommand()
			i++
		case c == '|' || c == ';':
			endCommand()
		case c == '`' || c == '(' || c == ')' || c == '&' || (c == '<' && strings.HasPrefix(line[i:], "<<")):
			return nil, fmt.Errorf("%q uses %q, which the doc test does not follow: keep shown commands simple", line, string(c))
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endCommand()
	return cmds, nil
}

// substitution returns the command of a word that is exactly "$(...)".
func substitution(s string) (string, bool) {
	if strings.HasPrefix(s, "$(") && strings.HasSuffix(s, ")") {
		return s[2 : len(s)-1], true
	}
	return "", false
}

// dropAssignments removes leading NAME=value words (environment for the
// command, or a plain variable assignment).
func dropAssignments(words []string) []string {
	for len(words) > 0 {
		name, _, ok := strings.Cut(words[0], "=")
		if !ok || name == "" || strings.ContainsAny(name, "-./$") {
			break
		}
		words = words[1:]
	}
	return words
}

// Tools a command needs besides what the test provides.
const (
	needNothing   = ""
	needKpt       = "kpt"
	needKustomize = "kustomize"
)

// redirection is a shell redirection operator at the start of a word.
var redirection = regexp.MustCompile(`^[0-9]*(>>|>|<)&?`)

// classify says whether the test knows how to run a command, and which
// installed tool it needs. Every command the docs show must be one of
// these; anything else is an error naming it, so that a new kind of
// command gets a rule here (or a stub) before it can be documented.
func classify(words []string) (need string, err error) {
	for _, w := range words {
		target := redirection.ReplaceAllString(w, "") // 2>&1, >file, <file
		if strings.HasPrefix(target, "/") || strings.HasPrefix(target, "~") {
			return "", fmt.Errorf("%q is an absolute path: the test cannot run it without touching the machine; use a path in the repository or under $(mktemp -d)", w)
		}
	}
	sub := func(i int) string {
		if i < len(words) {
			return words[i]
		}
		return ""
	}
	switch words[0] {
	case "cd", "cp", "mkdir", "mktemp", "cat":
		return needNothing, nil
	case "nfd-fn":
		return needNothing, nil
	case "go":
		switch sub(1) {
		case "run", "build", "install", "vet":
			return needNothing, nil
		case "test":
			return needNothing, nil // the go stub lists instead of running
		}
	case "kpt":
		switch sub(1) + " " + sub(2) {
		case "fn render", "fn eval", "fn source", "fn sink", "pkg get":
			return needKpt, nil
		}
	case "kustomize":
		if sub(1) == "build" {
			return needKustomize, nil
		}
	case "kubectl":
		switch sub(1) {
		case "get", "apply":
			return needNothing, nil // the kubectl stub
		}
	case "make":
		return needNothing, nil // the make stub: a dry run
	}
	return "", fmt.Errorf("the doc test does not know how to run %q: add a rule to classify (internal/doctest) or show it as text", strings.Join(words, " "))
}
