package config

// AssumeStrict makes the run judge unknown fields as kubectl apply does
// (fieldValidation Strict: the object is refused) unless the settings
// say strictFieldValidation: validate, the pre-commit gate, assumes the
// strictest client, while render, plan and explain keep Warn (pruned,
// client-go's default) unless told otherwise.
func (s *Settings) AssumeStrict() {
	if !s.StrictFieldValidationGiven {
		s.StrictFieldValidation = true
	}
}
