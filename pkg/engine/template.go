package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
)

// MaxTemplateOutput caps the expanded size of one labelsTemplate or
// varsTemplate, so a runaway template cannot exhaust memory.
const MaxTemplateOutput = 64 << 10

// templateFuncs are the sprig text functions minus those that read the
// environment or the network, which have no place in an offline renderer
// and would make output depend on the machine.
var templateFuncs = func() template.FuncMap {
	fm := sprig.TxtFuncMap()
	for _, name := range removedTemplateFuncs {
		delete(fm, name)
	}
	return fm
}()

// removedTemplateFuncs are the sprig functions nfd-master takes out.
var removedTemplateFuncs = []string{"env", "expandenv", "getHostByName"}

// removedFuncHint explains a parse error caused by a removed function.
func removedFuncHint(err error) string {
	for _, name := range removedTemplateFuncs {
		if strings.Contains(err.Error(), fmt.Sprintf("function %q not defined", name)) {
			return fmt.Sprintf(" (%s is one of the sprig functions nfd-master removes from templates: %s)", name, strings.Join(removedTemplateFuncs, ", "))
		}
	}
	return ""
}

// kvTemplate is a parsed labelsTemplate or varsTemplate.
type kvTemplate struct {
	tmpl *template.Template
}

func parseKVTemplate(text string) (*kvTemplate, error) {
	t, err := template.New("").Option("missingkey=error").Funcs(templateFuncs).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("invalid template: %w", err)
	}
	return &kvTemplate{tmpl: t}, nil
}

var errTemplateTooLarge = errors.New("template output exceeds 64 KiB")

type cappedBuffer struct{ bytes.Buffer }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.Len()+len(p) > MaxTemplateOutput {
		return 0, errTemplateTooLarge
	}
	return c.Buffer.Write(p)
}

// expandInto runs the template on data and adds the key=value lines of its
// output to out. Blank lines are skipped; a line without '=' is an error.
func (t *kvTemplate) expandInto(data any, out map[string]string) error {
	var buf cappedBuffer
	if err := t.tmpl.Execute(&buf, data); err != nil {
		return err
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("missing value in expanded template line %q, (format must be '<key>=<value>')", line)
		}
		out[k] = v
	}
	return nil
}
