package ruletest

import _ "embed"

// Schema is the JSON Schema of a RuleTest (draft 2020-12), for editors
// (yaml-language-server) and CI; docs/schema/ruletest.json is a copy a
// test keeps in step.
//
//go:embed ruletest.schema.json
var Schema []byte
