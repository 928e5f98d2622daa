package engine

// FeatureNames adds to names, lower-cased as terms look them up, every
// feature the rules match on: the features of their matchFeatures and
// matchAny terms, and rule.matched, which rules extend. Templates see only
// what their rule's terms matched, so these are all the features the
// rules read; a value naming a feature ("@domain.feature.element") is
// resolved after the rules run, and its reader checks it itself.
func (rs *RuleSet) FeatureNames(names map[string]bool) {
	names[backrefFeature] = true
	for _, o := range rs.objects {
		for _, r := range o.rules {
			r.featureNames(names)
		}
	}
}

// FeatureNames adds the features the group's rules match on (see
// RuleSet.FeatureNames).
func (g *Group) FeatureNames(names map[string]bool) {
	names[backrefFeature] = true
	for _, r := range g.rules {
		r.featureNames(names)
	}
}

func (r *rule) featureNames(names map[string]bool) {
	for _, t := range r.matchFeatures {
		names[t.feature] = true
	}
	for _, m := range r.matchAny {
		for _, t := range m {
			names[t.feature] = true
		}
	}
}
