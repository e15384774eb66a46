package runtime

// revision is a protocol revision the runtime speaks, by index into
// revisions (oldest first).
type revision int

// The protocol revisions, oldest first.
var revisions = [...]string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

const (
	rev20241105 revision = iota
	rev20250326
	rev20250618
	rev20251125
	rev20260728 // stateless: no initialize, see rev2026.go

	// latestRevision is the newest revision initialize negotiates.
	latestRevision = rev20251125
)

// SupportedVersions returns the protocol revisions the runtime negotiates,
// oldest first.
func SupportedVersions() []string {
	return append([]string(nil), revisions[:]...)
}

func (r revision) String() string { return revisions[r] }

// feature is something that exists from some revision on.
type feature int

const (
	featureBatch             feature = iota // JSON-RPC batches: 2025-03-26 only
	featureToolAnnotations                  // Tool.annotations: 2025-03-26+
	featureToolTitle                        // Tool.title, Implementation.title: 2025-06-18+
	featureStructuredContent                // outputSchema, structuredContent: 2025-06-18+
	featureAudio                            // audio content: 2025-03-26+
	featureResourceLink                     // resource_link content: 2025-06-18+
	featureCompletions                      // the completions capability: 2025-03-26+
	featureCompletionContext                // completion/complete context: 2025-06-18+
)

func (r revision) has(f feature) bool {
	switch f {
	case featureBatch:
		return r == rev20250326
	case featureToolAnnotations, featureAudio, featureCompletions:
		return r >= rev20250326
	case featureToolTitle, featureStructuredContent, featureResourceLink, featureCompletionContext:
		return r >= rev20250618
	}
	return false
}

// negotiate returns the revision to answer a client that asked for v: v
// itself when supported, else the latest that has initialize.
func negotiate(v string) revision {
	for i, s := range revisions[:latestRevision+1] {
		if s == v {
			return revision(i)
		}
	}
	return latestRevision
}

// headerRevision reads a protocol version as the MCP-Protocol-Version
// header gives it: a supported revision, or 2025-03-26 when absent, as
// the specification says.
func headerRevision(v string) (revision, bool) {
	if v == "" {
		return rev20250326, true
	}
	for i, r := range revisions {
		if r == v {
			return revision(i), true
		}
	}
	return 0, false
}
