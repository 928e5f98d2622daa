// Package engine compiles NodeFeatureRule and NodeFeatureGroup objects and
// evaluates them against a node's features exactly as nfd-master v0.19.0
// does (pkg/apis/nfd/nodefeaturerule), error messages included; CompileAs
// and CompileGroupAs reproduce another release (pkg/release): its template
// functions (no Sprig before v0.18, env, expandenv and getHostByName in
// v0.18 only), its template size cap (v0.19) and v0.16's failing terms on
// missing features.
//
// # Diagnostics
//
// Compile reports once what nfd-master would only find while evaluating.
// The severity says how certain the failure is: an error when the rule
// fails wherever nfd-master evaluates the broken part whatever the node's
// values (an unknown operator, Exists with values, a template that does
// not parse on a rule with matchers, a template reference no matcher
// provides outside any if/with/range); a warning when it depends on the
// node (an expression whose values are broken only fails where its element
// is present with a value; a bad type field likewise) or when nfd-master
// never runs the part (a template on a rule without matchFeatures or
// matchAny). Calls of functions whose result changes on every run (now,
// ago, uuidv4, rand*, shuffle, bcrypt, htpasswd, encryptAES, genPrivateKey,
// genCA*, gen*Cert*) are warnings: no one can predict their output.
//
// # Template budget
//
// Templates get every sprig function nfd-master gives them (v0.19: all but
// env, expandenv and getHostByName); none is removed. Instead each execution,
// of one template for one rule on one node, runs within a budget, and a
// template that exceeds it fails the rule on that node with an *EvalError
// wrapping a *BudgetError (errors.As finds it), which names the limit and the
// function:
//
//   - MaxTemplateSize: the template text (nfd-master's own limit).
//   - MaxTemplateOutput: the expanded text.
//   - MaxTemplateSteps: function calls, loop iterations, template
//     invocations and the elements functions walk; bcrypt, htpasswd and
//     derivePassword cost a tenth of it, key and certificate generation a
//     quarter.
//   - MaxTemplateValue: any one value a function takes or makes. Functions
//     whose result can be far larger than their arguments (repeat, until,
//     untilStep, seq, indent, nindent, replace, regexReplaceAll*, join,
//     wrap, wrapWith, rand*, printf widths) are refused before they run;
//     functions that print, copy or compare deeply (toJson, deepCopy,
//     toString, print, merge, ...) have their arguments measured first, so
//     shared or cyclic structures built with dict, list or set cannot blow
//     up; printing such a structure is measured against MaxTemplateOutput.
//   - MaxTemplateAlloc: the sum of all function results.
//   - MaxTemplateTime: a wall-clock backstop; a template that exceeds it
//     once fails at once, unrun, on every later node.
//
// Executions of one RuleSet's (or Group's) templates are serialised, since
// the budget is shared by their function map.
package engine
