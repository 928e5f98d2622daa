// Package oracle holds the in-process admission oracle: a test that
// creates every NFD object of the project's testdata and fuzz corpora
// through k8s.io/apiextensions-apiserver's own create path (structural
// schema, pruning, null dropping, defaulting, ObjectMeta coercion and the
// CRD validator) for each release's CRDs, and fails where pkg/admission
// judges an object otherwise. It lives in the tools module because the
// API server's packages would add 10 MB and 24 ms per start to nfd-fn.
package oracle
