package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// kvTemplate is a labelsTemplate or varsTemplate. parseErr is set when the
// text does not parse: nfd-master parses templates each time it runs them,
// so the error only shows where the rule matches.
type kvTemplate struct {
	tmpl     *template.Template
	env      *templateEnv
	parseErr error
	// size is the template text's length.
	size int
	// timedOut is the time budget error of the first execution that ran
	// out of time: later ones (the other nodes) return it without running
	// (execute). Guarded by env.mu.
	timedOut error
}

// errTemplateTooLarge is nfd-master's error for a template over
// MaxTemplateSize.
var errTemplateTooLarge = errors.New("the template is larger than nfd-master accepts")

// parseKVTemplate parses text as nfd-master does (same size limit, same
// functions, missingkey=error), then instruments it for the budget: a tick
// at the start of every range body and template, and every printing
// action's value measured before it is printed.
func parseKVTemplate(text string, env *templateEnv) (*kvTemplate, error) {
	if kt, ok := env.parsed[text]; ok {
		// A parsed template is never changed after parsing, and running
		// one concurrently is safe: rules with the same text share it.
		return kt, kt.parseErr
	}
	kt, err := parseNewKVTemplate(text, env)
	if env.parsed == nil {
		env.parsed = map[string]*kvTemplate{}
	}
	env.parsed[text] = kt
	return kt, err
}

// parseNewKVTemplate is parseKVTemplate for a text not parsed before.
// Installing the functions in a new template is most of the cost of
// parsing one, hence the cache.
func parseNewKVTemplate(text string, env *templateEnv) (*kvTemplate, error) {
	kt := &kvTemplate{env: env, size: len(text)}
	if len(text) > MaxTemplateSize && env.rel.Has(release.TemplateSizeCap) {
		kt.parseErr = fmt.Errorf("%w: %d bytes > %d limit", errTemplateTooLarge, len(text), MaxTemplateSize)
		return kt, kt.parseErr
	}
	t, err := template.New("").Option("missingkey=error").Funcs(env.funcs).Parse(text)
	if err != nil {
		kt.parseErr = fmt.Errorf("invalid template: %w", err)
		return kt, kt.parseErr
	}
	t.Funcs(env.internal)
	for _, tt := range t.Templates() {
		if tt.Tree == nil {
			continue
		}
		main := tt.Name() == t.Name()
		in := instrumenter{scalar: env.scalar}
		in.list(tt.Tree.Root, instrumentCtx{dotData: main}, !main)
	}
	kt.tmpl = t
	return kt, nil
}

// instrumenter rewrites a parsed template in place for the budget: a tick
// call at the start of every loop body and defined template that can run
// more often than the input is large, and an emit call at the end of
// every printing action whose value may be a structure a template built
// (shared or cyclic, and so much larger printed than in memory). Values
// read from the node's features and results of functions returning a
// scalar are left alone: they are bounded already, and this keeps the
// common template as fast as it was.
type instrumenter struct {
	scalar map[string]bool
}

// instrumentCtx is what the instrumenter knows at a point: whether dot
// is the template data or part of it, and whether it is inside a range.
type instrumentCtx struct {
	dotData, inRange bool
}

func (in instrumenter) list(l *parse.ListNode, c instrumentCtx, tick bool) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		in.node(n, c)
	}
	if tick {
		l.Nodes = append([]parse.Node{internalAction(l.Position(), tickFunc)}, l.Nodes...)
	}
}

func (in instrumenter) node(n parse.Node, c instrumentCtx) {
	switch n := n.(type) {
	case *parse.ActionNode:
		if len(n.Pipe.Decl) == 0 && !in.boundedPipe(n.Pipe, c.dotData) {
			n.Pipe.Cmds = append(n.Pipe.Cmds, internalCommand(n.Position(), emitFunc))
		}
	case *parse.IfNode:
		in.list(n.List, c, false)
		in.list(n.ElseList, c, false)
	case *parse.WithNode:
		data := c.dotData && dataPipe(n.Pipe)
		in.list(n.List, instrumentCtx{dotData: data, inRange: c.inRange}, false)
		in.list(n.ElseList, c, false)
	case *parse.RangeNode:
		data := c.dotData && dataPipe(n.Pipe)
		in.list(n.List, instrumentCtx{dotData: data, inRange: true}, c.inRange || !data)
		in.list(n.ElseList, c, false)
	case *parse.ListNode:
		in.list(n, c, false)
	}
}

// dataPipe reports whether a pipeline only reads the template data: a
// field chain on dot (itself data), or dot.
func dataPipe(p *parse.PipeNode) bool {
	if p == nil || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return false
	}
	switch p.Cmds[0].Args[0].(type) {
	case *parse.FieldNode, *parse.DotNode:
		return true
	}
	return false
}

// boundedPipe reports whether the value of a pipeline is bounded without
// measuring it: data read from the features, a constant, or the result of
// a function returning a scalar.
func (in instrumenter) boundedPipe(p *parse.PipeNode, dotData bool) bool {
	last := p.Cmds[len(p.Cmds)-1]
	if len(last.Args) == 0 {
		return false
	}
	switch a := last.Args[0].(type) {
	case *parse.IdentifierNode:
		return in.scalar[a.Ident]
	case *parse.FieldNode, *parse.DotNode:
		return dotData && len(last.Args) == 1 && len(p.Cmds) == 1
	case *parse.StringNode, *parse.NumberNode, *parse.BoolNode:
		return len(p.Cmds) == 1
	case *parse.PipeNode:
		return len(p.Cmds) == 1 && len(last.Args) == 1 && in.boundedPipe(a, dotData)
	}
	return false
}

func internalCommand(pos parse.Pos, fn string) *parse.CommandNode {
	return &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos,
		Args: []parse.Node{parse.NewIdentifier(fn).SetPos(pos)}}
}

func internalAction(pos parse.Pos, fn string) *parse.ActionNode {
	return &parse.ActionNode{NodeType: parse.NodeAction, Pos: pos,
		Pipe: &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Cmds: []*parse.CommandNode{internalCommand(pos, fn)}}}
}

// cappedBuffer refuses writes past limit.
type cappedBuffer struct {
	bytes.Buffer
	limit int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.Len()+len(p) > c.limit {
		return 0, &BudgetError{Limit: "output", Detail: fmt.Sprintf("more than %d bytes", c.limit)}
	}
	return c.Buffer.Write(p)
}

// outputLimit is MaxTemplateOutput, or the template's own size when it is
// larger (a release without the size cap, v0.18 and earlier, runs
// templates of any size, and their text alone can be printed).
func (t *kvTemplate) outputLimit() int {
	return max(MaxTemplateOutput, t.size)
}

// execute runs the template on data within a fresh budget. A budget error
// wins over the error it may have caused downstream. A template that has
// once run out of time (MaxTemplateTime) is not run again: every later
// execution fails at once with the same error, so that a slow template
// costs a run MaxTemplateTime once, not once per node.
func (t *kvTemplate) execute(data any) (string, error) {
	env := t.env
	env.mu.Lock()
	defer env.mu.Unlock()
	if t.timedOut != nil {
		return "", t.timedOut
	}
	env.b.reset()
	buf := cappedBuffer{limit: t.outputLimit()}
	err := t.tmpl.Execute(&buf, data)
	if env.b.err != nil {
		if be, ok := env.b.err.(*BudgetError); ok && be.Limit == limitTime {
			t.timedOut = env.b.err
		}
		return "", env.b.err
	}
	if err != nil {
		return "", err
	}
	return buf.String(), nil
}

// expandInto runs the template on data and adds the key=value lines of its
// output to out. Blank lines are skipped; a line without '=' is an error.
func (t *kvTemplate) expandInto(data any, out map[string]string) error {
	text, err := t.execute(data)
	if err != nil {
		return err
	}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("the template wrote %q, which is not a key=value line", line)
		}
		out[k] = v
	}
	return nil
}
