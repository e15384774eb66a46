package generator

import "time"

// timeoutKey reads timeout=<duration> of a //mcp:resource or //mcp:prompt
// line: the bound on a read's or a get's time (runtime's Timeout field).
func timeoutKey(line *directiveLine, directive string) (time.Duration, []Diagnostic) {
	kv, ok := line.get("timeout")
	if !ok {
		return 0, nil
	}
	d, err := time.ParseDuration(kv.Value)
	if err != nil || d <= 0 {
		return 0, []Diagnostic{diagf(kv.Pos, "%s: timeout=%s: want a positive duration such as 30s, 500ms or 2m", directive, kv.Value)}
	}
	return d, nil
}
