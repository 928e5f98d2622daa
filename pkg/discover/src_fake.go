package discover

// discoverFake is nfd-worker v0.19's fake source (source/fake/fake.go), a
// test source that only core.featureSources enables: its features are
// sources.fake's flagFeatures, attributeFeatures and instanceFeatures, as
// configured (defaults below). Its labels (sourceLabels) are
// sources.fake.labels.
func discoverFake(e *env, c *collector) {
	f := e.cfg.Sources.Fake
	c.flags("flag", f.FlagFeatures)
	c.attrs("attribute", f.AttributeFeatures)
	c.instances("instance", f.InstanceFeatures)
}

// defaultFakeConfig is sources.fake's default: three labels, three flags,
// three attributes and three instances.
func defaultFakeConfig() fakeConfig {
	return fakeConfig{
		Labels:            map[string]string{"fakefeature1": "true", "fakefeature2": "true", "fakefeature3": "true"},
		FlagFeatures:      []string{"flag_1", "flag_2", "flag_3"},
		AttributeFeatures: map[string]string{"attr_1": "true", "attr_2": "false", "attr_3": "10"},
		InstanceFeatures: []map[string]string{
			{"name": "instance_1", "attr_1": "true", "attr_2": "false", "attr_3": "10", "attr_4": "foobar"},
			{"name": "instance_2", "attr_1": "true", "attr_2": "true", "attr_3": "100"},
			{"name": "instance_3"},
		},
	}
}
