package fn

// ApplyPart is the part of the apply-ready Nodes a stream for
// `kubectl apply --server-side` holds. Server-side apply keeps one applied
// set per field manager and subresource, exactly the fields of its last
// apply: the Node's own fields and its status subresource are applied
// apart, each from a stream holding its part alone, so that each apply
// removes what it applied before and no longer holds, and neither owns
// what the other sets. applyShape writes each part.
type ApplyPart int

const (
	// ApplyNone writes no apply-ready stream.
	ApplyNone ApplyPart = iota
	// ApplyObject is the Node's own fields: name, labels, annotations
	// and taints, for `kubectl apply --server-side`.
	ApplyObject
	// ApplyStatus is the status subresource's: name and extended
	// resources (status.capacity, status.allocatable), for `kubectl apply
	// --server-side --subresource=status`.
	ApplyStatus
)
