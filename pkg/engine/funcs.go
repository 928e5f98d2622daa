package engine

import (
	"fmt"
	"maps"
	"net"
	"os"
	"reflect"
	"strings"
	"sync"
	"text/template"

	"github.com/Masterminds/sprig/v3"

	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// removedTemplateFuncs are the sprig functions nfd-master takes out
// (v0.19 on; v0.18 has them: release.HostEnvFuncs).
var removedTemplateFuncs = []string{"env", "expandenv", "getHostByName"}

// removedFuncHint explains a parse error caused by a function the
// release's nfd-master does not have: a Sprig function before v0.18, or
// one of those v0.19 removes.
func removedFuncHint(err error, rel release.Release) string {
	undefined, ok := undefinedFunc(err)
	if !ok {
		return ""
	}
	if !rel.Has(release.SprigFuncs) {
		if _, sprigHas := sprig.TxtFuncMap()[undefined]; sprigHas {
			first, _ := release.SprigFuncs.First()
			return fmt.Sprintf(" (%s is a Sprig function: nfd-master %s has none, they arrive in %s)", undefined, rel, first)
		}
		return ""
	}
	for _, name := range removedTemplateFuncs {
		if name == undefined && !rel.Has(release.HostEnvFuncs) {
			return fmt.Sprintf(" (%s is one of the sprig functions nfd-master removes from templates: %s)", name, strings.Join(removedTemplateFuncs, ", "))
		}
	}
	return ""
}

// undefinedFunc is the function a "function %q not defined" parse error
// names.
func undefinedFunc(err error) (string, bool) {
	_, rest, ok := strings.Cut(err.Error(), "function \"")
	if !ok {
		return "", false
	}
	name, rest, ok := strings.Cut(rest, "\"")
	return name, ok && strings.HasPrefix(rest, " not defined")
}

// hostEnvFuncs stand in for Sprig's env, expandenv and getHostByName on
// the releases that have them (v0.18): nfd-master's environment and
// resolver are not known offline, so every variable reads as unset and
// only what resolves the same everywhere does (an IP address, localhost).
var hostEnvFuncs = template.FuncMap{
	"env":           func(string) string { return "" },
	"expandenv":     func(s string) string { return os.Expand(s, func(string) string { return "" }) },
	"getHostByName": getHostByName,
}

// getHostByName resolves what needs no resolver: an IP address is itself,
// localhost 127.0.0.1. Any other name fails the template, as it does in
// Sprig where the name does not resolve.
func getHostByName(name string) (string, error) {
	if ip := net.ParseIP(name); ip != nil {
		return ip.String(), nil
	}
	if strings.EqualFold(name, "localhost") {
		return "127.0.0.1", nil
	}
	return "", fmt.Errorf("getHostByName %q: nfd-fn cannot resolve names as nfd-master's pod would", name)
}

// hostEnvDiagnostics warns about calls of the host environment functions:
// nfd-fn renders them as in an empty environment.
func hostEnvDiagnostics(t *kvTemplate, field string, report reportFunc) {
	if !t.env.rel.Has(release.HostEnvFuncs) {
		return
	}
	for _, name := range t.funcNames() {
		if _, ok := hostEnvFuncs[name]; ok {
			report(SeverityWarning, field, "template calls %s, which reads nfd-master's pod (its environment or resolver): nfd-fn renders every variable as unset and fails every host name lookup", name)
		}
	}
}

// shallowFuncs only move references around (build a list or dict from
// their arguments, pick an element): their arguments are not walked. Every
// other function may print, copy or compare its arguments deeply, so it
// gets them walked and measured first.
var shallowFuncs = setOf("dict", "set", "unset", "get", "hasKey", "list", "tuple", "append", "push",
	"mustAppend", "mustPush", "prepend", "mustPrepend", "concat", "first", "mustFirst", "last", "mustLast",
	"rest", "mustRest", "initial", "mustInitial", "reverse", "mustReverse", "keys", "values", "pick", "omit",
	"dig", "compact", "mustCompact", "default", "empty", "coalesce", "all", "any", "ternary", "kindOf",
	"kindIs", "typeOf", "typeIs", "typeIsLike", "chunk", "mustChunk", "slice", "mustSlice", "pluck")

// expensiveFuncs cost many steps per call: key generation and password
// hashing take tens of milliseconds to seconds each.
var expensiveFuncs = map[string]int64{
	"bcrypt": MaxTemplateSteps / 10, "htpasswd": MaxTemplateSteps / 10,
	"derivePassword": MaxTemplateSteps / 10, "genPrivateKey": MaxTemplateSteps / 4,
	"genCA": MaxTemplateSteps / 4, "genCAWithKey": MaxTemplateSteps / 4,
	"genSelfSignedCert": MaxTemplateSteps / 4, "genSelfSignedCertWithKey": MaxTemplateSteps / 4,
	"genSignedCert": MaxTemplateSteps / 4, "genSignedCertWithKey": MaxTemplateSteps / 4,
}

// nondeterministicFuncs give a different result on every run: a template
// that calls them cannot be predicted, by nfd-fn or anyone.
var nondeterministicFuncs = setOf("now", "ago", "uuidv4", "randAlphaNum", "randAlpha", "randAscii",
	"randNumeric", "randBytes", "randInt", "shuffle", "bcrypt", "htpasswd", "encryptAES", "genPrivateKey",
	"genCA", "genCAWithKey", "genSelfSignedCert", "genSelfSignedCertWithKey", "genSignedCert",
	"genSignedCertWithKey")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// builtinOverrides are text/template's own functions that print their
// arguments; they get the budget checks too.
var builtinOverrides = template.FuncMap{
	"print":    fmt.Sprint,
	"printf":   fmt.Sprintf,
	"println":  fmt.Sprintln,
	"html":     template.HTMLEscaper,
	"js":       template.JSEscaper,
	"urlquery": template.URLQueryEscaper,
}

// templateEnv is the function map templates of one compiled rule set run
// with, and the budget of the execution in progress. Executions are
// serialised on mu, since the functions share the one budget.
type templateEnv struct {
	mu    sync.Mutex
	b     budget
	funcs template.FuncMap
	// internal are added after parsing, so rule authors cannot call them.
	internal template.FuncMap
	// scalar lists the functions that return a string, number or bool.
	scalar map[string]bool
	// parsed caches the templates of the rule set by their text.
	parsed map[string]*kvTemplate
	// rel is the release whose functions and limits apply.
	rel release.Release
}

// lazyEnv makes the template environment of a rule set on first use:
// rule sets without templates do not pay for it.
type lazyEnv struct {
	env *templateEnv
	// rel is the release whose template functions the rules get.
	rel release.Release
}

func (l *lazyEnv) get() *templateEnv {
	if l.env == nil {
		l.env = newTemplateEnv(l.rel)
	}
	return l.env
}

const (
	tickFunc = "nfdfnBudgetTick"
	emitFunc = "nfdfnBudgetEmit"
)

// newTemplateEnv makes the function map of release rel's templates:
// text/template's own functions, and from v0.18 Sprig's (v0.19 without
// the host environment functions).
func newTemplateEnv(rel release.Release) *templateEnv {
	env := &templateEnv{rel: rel}
	env.b.reset()
	fm := template.FuncMap{}
	if rel.Has(release.SprigFuncs) {
		fm = sprig.TxtFuncMap()
	}
	for _, name := range removedTemplateFuncs {
		delete(fm, name)
	}
	if rel.Has(release.HostEnvFuncs) {
		maps.Copy(fm, hostEnvFuncs)
	}
	for name, fn := range builtinOverrides {
		fm[name] = fn
	}
	env.funcs = make(template.FuncMap, len(fm))
	env.scalar = setOf("len", "eq", "ne", "lt", "le", "gt", "ge", "not")
	for name, fn := range fm {
		env.funcs[name] = env.wrap(name, fn)
		if returnsScalar(reflect.TypeOf(fn)) {
			env.scalar[name] = true
		}
	}
	env.internal = template.FuncMap{tickFunc: env.tick, emitFunc: env.emit}
	return env
}

func returnsScalar(ft reflect.Type) bool {
	switch ft.Out(0).Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// tick is called at the start of every range iteration and template
// invocation.
func (env *templateEnv) tick() (string, error) {
	return "", env.b.spend("", 1)
}

// emit measures a value an action is about to print and prints it as
// text/template would, so that printing a huge or cyclic structure fails
// before fmt builds it in memory.
func (env *templateEnv) emit(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	size, nodes := deepSize(reflect.ValueOf(v), MaxTemplateOutput)
	if err := env.b.spend("", nodes); err != nil {
		return "", err
	}
	if size > MaxTemplateOutput {
		return "", env.b.fail(&BudgetError{Limit: "output", Detail: fmt.Sprintf("a value to print of %d bytes or more, limit %d", size, MaxTemplateOutput)})
	}
	var sb strings.Builder
	if err := printTemplate.Execute(&sb, v); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// printTemplate prints a value exactly as an action does.
var printTemplate = template.Must(template.New("").Parse("{{.}}"))

// wrap returns fn with budget checks: a step per call (more for expensive
// functions), a size estimate of the result before the call where the
// arguments tell it, a deep walk of the arguments of functions that
// traverse them, and the size of the result charged after the call. When
// the budget is exhausted the function returns zero values (and an error,
// if it can) and the execution reports the budget error.
func (env *templateEnv) wrap(name string, fn any) any {
	if _, special := resultEstimates[name]; (!special || name == "printf") && expensiveFuncs[name] == 0 && workEstimates[name] == nil {
		if typed := env.wrapTyped(name, fn); typed != nil {
			return typed
		}
	}
	fv := reflect.ValueOf(fn)
	ft := fv.Type()
	c := callCheck{name: name, walk: !shallowFuncs[name], cost: 1 + expensiveFuncs[name],
		estimate: resultEstimates[name], work: workEstimates[name], variadic: ft.IsVariadic()}
	inPlace := inPlaceFuncs[name]
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		if err := c.before(&env.b, args); err != nil {
			return failResults(ft, err)
		}
		var out []reflect.Value
		if c.variadic {
			out = fv.CallSlice(args)
		} else {
			out = fv.Call(args)
		}
		size := int64(16)
		if !inPlace {
			size = shallowSize(out[0])
		}
		if err := env.b.allocate(name, size); err != nil {
			return failResults(ft, err)
		}
		return out
	}).Interface()
}

// wrapTyped wraps the most common function types without reflection, with
// the same checks as wrap; nil for other types.
func (env *templateEnv) wrapTyped(name string, fn any) any {
	b := &env.b
	switch f := fn.(type) {
	case func(string) string:
		return func(s string) string {
			if b.args(name, s) != nil {
				return ""
			}
			return b.result(name, f(s))
		}
	case func(string, string) string:
		return func(s, t string) string {
			if b.args(name, s, t) != nil {
				return ""
			}
			return b.result(name, f(s, t))
		}
	case func(string, string) bool:
		return func(s, t string) bool {
			return b.args(name, s, t) == nil && f(s, t)
		}
	case func(any) string:
		return func(v any) string {
			if b.args(name, v) != nil {
				return ""
			}
			return b.result(name, f(v))
		}
	case func(string, ...any) string:
		if name != "printf" {
			return nil
		}
		return func(format string, v ...any) string {
			if b.args(name, v...) != nil || b.checkValue(name, printfSize(format, v)) != nil {
				return ""
			}
			return b.result(name, f(format, v...))
		}
	case func(...any) string:
		return func(v ...any) string {
			if b.args(name, v...) != nil {
				return ""
			}
			return b.result(name, f(v...))
		}
	}
	return nil
}

// args spends a call's step and checks its arguments' sizes.
func (b *budget) args(fn string, args ...any) error {
	if err := b.spend(fn, 1); err != nil {
		return err
	}
	for _, a := range args {
		var size, nodes int64
		if s, ok := a.(string); ok {
			size, nodes = int64(len(s)), 1
		} else {
			size, nodes = deepSize(reflect.ValueOf(a), MaxTemplateValue)
		}
		if err := b.spend(fn, nodes-1); err != nil {
			return err
		}
		if err := b.checkValue(fn, size); err != nil {
			return err
		}
	}
	return nil
}

// result charges a string result; "" once the budget is exhausted.
func (b *budget) result(fn, s string) string {
	if b.allocate(fn, int64(len(s))) != nil {
		return ""
	}
	return s
}

// callCheck is what wrap checks before calling one function.
type callCheck struct {
	name     string
	walk     bool
	cost     int64
	estimate func([]reflect.Value) int64
	work     func([]reflect.Value) int64
	variadic bool
}

func (c *callCheck) before(b *budget, args []reflect.Value) error {
	if err := b.spend(c.name, c.cost); err != nil {
		return err
	}
	if c.walk {
		for _, a := range args {
			size, nodes := deepSize(a, MaxTemplateValue)
			if err := b.spend(c.name, nodes); err != nil {
				return err
			}
			if err := b.checkValue(c.name, size); err != nil {
				return err
			}
		}
	}
	if c.estimate == nil && c.work == nil {
		return nil
	}
	flat := flatten(args, c.variadic)
	if c.estimate != nil {
		if err := b.checkValue(c.name, c.estimate(flat)); err != nil {
			return err
		}
	}
	if c.work != nil {
		return b.spend(c.name, c.work(flat))
	}
	return nil
}

// flatten spreads the variadic slice of a MakeFunc call into arguments.
func flatten(args []reflect.Value, variadic bool) []reflect.Value {
	if !variadic || len(args) == 0 {
		return args
	}
	last := args[len(args)-1]
	flat := append([]reflect.Value(nil), args[:len(args)-1]...)
	for i := range last.Len() {
		flat = append(flat, last.Index(i))
	}
	return flat
}

var errorType = reflect.TypeFor[error]()

// failResults are the zero results of a function of type ft, with err as
// the error result when it has one.
func failResults(ft reflect.Type, err error) []reflect.Value {
	out := make([]reflect.Value, ft.NumOut())
	for i := range out {
		out[i] = reflect.Zero(ft.Out(i))
	}
	if n := ft.NumOut(); n > 0 && ft.Out(n-1) == errorType {
		out[n-1] = reflect.ValueOf(&err).Elem()
	}
	return out
}

// resultEstimates tell, from the arguments, how large the result of a
// function whose output can be much larger than its input will be, so the
// call can be refused before it allocates.
var resultEstimates = map[string]func(args []reflect.Value) int64{
	"repeat":                     func(a []reflect.Value) int64 { return intArg(a, 0) * strLen(a, 1) },
	"until":                      func(a []reflect.Value) int64 { return 16 * abs(intArg(a, 0)) },
	"untilStep":                  func(a []reflect.Value) int64 { return 16 * stepCount(intArg(a, 0), intArg(a, 1), intArg(a, 2)) },
	"seq":                        seqEstimate,
	"indent":                     indentEstimate,
	"nindent":                    indentEstimate,
	"replace":                    func(a []reflect.Value) int64 { return replaceEstimate(strLen(a, 0), strLen(a, 1), strLen(a, 2)) },
	"regexReplaceAll":            regexReplaceEstimate,
	"mustRegexReplaceAll":        regexReplaceEstimate,
	"regexReplaceAllLiteral":     func(a []reflect.Value) int64 { return replaceEstimate(0, strLen(a, 2), strLen(a, 1)) },
	"mustRegexReplaceAllLiteral": func(a []reflect.Value) int64 { return replaceEstimate(0, strLen(a, 2), strLen(a, 1)) },
	"join":                       joinEstimate,
	"wrapWith":                   func(a []reflect.Value) int64 { return wrapEstimate(intArg(a, 0), strLen(a, 1), strLen(a, 2)) },
	"wrap":                       func(a []reflect.Value) int64 { return wrapEstimate(intArg(a, 0), 1, strLen(a, 1)) },
	"randAlphaNum":               func(a []reflect.Value) int64 { return intArg(a, 0) },
	"randAlpha":                  func(a []reflect.Value) int64 { return intArg(a, 0) },
	"randAscii":                  func(a []reflect.Value) int64 { return intArg(a, 0) },
	"randNumeric":                func(a []reflect.Value) int64 { return intArg(a, 0) },
	"randBytes":                  func(a []reflect.Value) int64 { return 2 * intArg(a, 0) },
	"printf":                     printfEstimate,
}

// workEstimates tell, from the arguments, how many steps a function with
// more than linear cost will take.
var workEstimates = map[string]func(args []reflect.Value) int64{
	"uniq": quadraticWork, "mustUniq": quadraticWork, "without": quadraticWork, "mustWithout": quadraticWork,
}

// inPlaceFuncs change a dict and return it: they allocate one entry.
var inPlaceFuncs = setOf("set", "unset")

// argument readers for estimates; a missing or odd argument counts as 0,
// leaving the error to the function itself.
func intArg(a []reflect.Value, i int) int64 {
	if i >= len(a) {
		return 0
	}
	v := a[i]
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	}
	return 0
}

func strLen(a []reflect.Value, i int) int64 {
	if i >= len(a) || a[i].Kind() != reflect.String {
		return 0
	}
	return int64(a[i].Len())
}

func listLen(v reflect.Value) int64 {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return int64(v.Len())
	}
	return 0
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// stepCount is how many values untilStep(start, stop, step) makes.
func stepCount(start, stop, step int64) int64 {
	if step == 0 || (stop > start) != (step > 0) {
		return 0
	}
	return abs(stop-start)/abs(step) + 1
}

func seqEstimate(a []reflect.Value) int64 {
	const perValue = 21 // digits, sign and separator of an int64
	switch len(a) {
	case 1:
		return perValue * (abs(intArg(a, 0)) + 2)
	case 2:
		return perValue * (abs(intArg(a, 1)-intArg(a, 0)) + 2)
	case 3:
		return perValue * stepCount(intArg(a, 0), intArg(a, 2), intArg(a, 1))
	}
	return 0
}

func indentEstimate(a []reflect.Value) int64 {
	lines := int64(1)
	if len(a) > 1 && a[1].Kind() == reflect.String {
		lines += int64(strings.Count(a[1].String(), "\n"))
	}
	return abs(intArg(a, 0))*lines + strLen(a, 1) + 1
}

// replaceEstimate bounds strings.Replace(src, old, new, -1): an empty old
// inserts new around every rune.
func replaceEstimate(oldLen, newLen, srcLen int64) int64 {
	return (srcLen/max(oldLen, 1)+1)*newLen + srcLen
}

// regexReplaceEstimate bounds regexReplaceAll(regex, s, repl): every
// match, empty ones included, is replaced, and each $ in repl can expand
// to the whole of s.
func regexReplaceEstimate(a []reflect.Value) int64 {
	s, repl := strLen(a, 1), strLen(a, 2)
	if repl > 0 {
		repl += int64(strings.Count(a[2].String(), "$")) * s
	}
	return (s+1)*repl + s
}

func joinEstimate(a []reflect.Value) int64 {
	if len(a) < 2 {
		return 0
	}
	return listLen(a[1]) * strLen(a, 0)
}

func wrapEstimate(width, sepLen, strLen int64) int64 {
	return (strLen/max(width, 1)+1)*sepLen + strLen
}

// quadraticWork is the comparisons uniq and without make.
func quadraticWork(a []reflect.Value) int64 {
	if len(a) == 0 {
		return 0
	}
	n := listLen(a[0])
	if len(a) > 1 {
		return n * int64(len(a)-1)
	}
	return n * n / 2
}

// printfEstimate bounds fmt.Sprintf: the format, the arguments' sizes
// (walked before) and every width or precision, written in the format or,
// with *, taken from an argument.
func printfEstimate(a []reflect.Value) int64 {
	if len(a) == 0 || a[0].Kind() != reflect.String {
		return 0
	}
	args := make([]any, 0, len(a)-1)
	for _, v := range a[1:] {
		args = append(args, v.Interface())
	}
	return printfSize(a[0].String(), args)
}

func printfSize(format string, args []any) int64 {
	total := int64(len(format))
	for _, n := range formatWidths(format) {
		total += n
	}
	if strings.Contains(format, "*") {
		for _, v := range args {
			if n, ok := v.(int); ok {
				total += abs(int64(n))
			}
		}
	}
	return total
}

// formatWidths lists the numbers in a format's verbs (widths and
// precisions), capped so that the sum cannot overflow.
func formatWidths(format string) []int64 {
	var widths []int64
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		for i++; i < len(format); i++ {
			c := format[i]
			if c >= '0' && c <= '9' {
				n := int64(0)
				for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
					n = min(n*10+int64(format[i]-'0'), MaxTemplateValue+1)
				}
				widths = append(widths, n)
				i--
				continue
			}
			if !strings.ContainsRune("+-# .*[]", rune(c)) {
				break
			}
		}
	}
	return widths
}
