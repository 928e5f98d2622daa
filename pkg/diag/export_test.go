package diag

// SARIFSample is sarifSample, for the tests outside the package (the
// schema check, which uses internal/testkit, which imports diag).
var SARIFSample = sarifSample
