package diag

// SeverityRule is how nfd-fn grades a finding, stated once: docs/checks.md
// and the README repeat it, and the severities below follow it.
const SeverityRule = `Severity is the certainty of the defect, not the size of its effect on a fleet.

- **Error**: nfd-master will never do what the line asks, whatever the fleet and whatever its
  configuration: unknown operators and wrong value counts, operands that do not parse (numbers,
  versions, regexps, with Go's reason), ` + "`GtLt`/`GeLe`" + ` bounds out of order, templates that do not
  parse or call a removed function, invalid label, annotation, taint and extended resource names and
  values, namespaces no setting can allow (` + "`kubernetes.io/`" + ` annotations, taints and extended
  resources, unprefixed taint keys), ` + "`@`" + ` references that can never resolve, unknown fields and
  non-scalar keys, a ` + "`rule.matched`" + ` only a later-sorted NodeFeatureRule produces, a misspelt NFD
  API group or kind; on a given fleet, a rule nfd-master fails on its nodes.
- **Warning**: the outcome depends on something the files do not show: a feature or element no
  NFD source publishes (a third-party NodeFeature may), a label namespace ` + "`extraLabelNs`" + ` could
  allow, taints when no configuration says whether ` + "`enableTaints`" + ` is on, a rule that matches no
  node of the given fleet, a template part that fails only through some matchers.
- **When the configuration is given** (` + "`--config`" + `, a functionConfig naming nfd-master settings), what
  it decides is no longer uncertain: denied label namespaces, ` + "`labelWhiteList`" + `, taints with
  ` + "`enableTaints`" + ` off and outputs ` + "`restrictions.disable*`" + ` switch off are errors. So, with a
  feature catalogue (` + "`featureCatalog`" + ` in the functionConfig, ` + "`--feature-catalog FILE`" + ` of validate, test and render)
  declaring third-party features, are a misspelt element of a declared feature and a feature of a
  declared domain the catalogue does not list (NFD010, NFD011, NFD016).
- **Info**: notes (a skipped document, an alias read, an explanation).

` + "`--strict`" + ` (validate) fails on warnings too.`

// Severities lists, for each check ID, the severities its findings can
// have, most certain first. A test keeps it, the README's validate table
// and the code's findings in step.
var Severities = map[string][]Severity{
	"NFD001": {Error}, "NFD002": {Error}, "NFD003": {Error, Warning}, "NFD004": {Error}, "NFD005": {Error},
	"NFD006": {Error, Warning}, "NFD007": {Warning}, "NFD008": {Error}, "NFD009": {Error, Warning},
	"NFD010": {Warning, Error}, "NFD011": {Warning, Error}, "NFD012": {Error, Warning}, "NFD013": {Error},
	"NFD014": {Error}, "NFD015": {Error}, "NFD016": {Error, Warning}, "NFD017": {Error, Warning},
	"NFD018": {Error}, "NFD019": {Warning, Info}, "NFD020": {Warning}, "NFD021": {Warning},
	"NFD022": {Warning}, "NFD023": {Info}, "NFD024": {Error}, "NFD025": {Error}, "NFD026": {Warning},
	"NFD027": {Error}, "NFD028": {Error}, "NFD029": {Error, Warning}, "NFD030": {Error, Warning},
	"NFD031": {Error}, "NFD032": {Error}, "NFD033": {Warning}, "NFD034": {Info}, "NFD035": {Error, Warning},
	"NFD036": {Info}, "NFD037": {Info}, "NFD038": {Error, Warning}, "NFD039": {Info}, "NFD040": {Warning},
	"NFD041": {Info}, "NFD042": {Info}, "NFD043": {Error}, "NFD044": {Warning}, "NFD045": {Info},
	"NFD046": {Warning}, "NFD047": {Error}, "NFD048": {Error}, "NFD049": {Error},
	"NFD050": {Warning}, "NFD051": {Warning}, "NFD052": {Warning}, "NFD053": {Error, Warning},
	"NFD054": {Warning, Info}, "NFD055": {Error}, "NFD056": {Warning}, "NFD057": {Warning}, "NFD058": {Error},
	"NFD059": {Error, Warning}, "NFD060": {Info},
	"NFD300": {Error}, "NFD301": {Warning}, "NFD302": {Info}, "NFD303": {Warning}, "NFD304": {Warning},
	"NFD305": {Warning},
	"NFD310": {Info}, "NFD311": {Warning}, "NFD312": {Warning}, "NFD313": {Warning}, "NFD314": {Warning},
	"NFD315": {Warning}, "NFD316": {Warning},
}
