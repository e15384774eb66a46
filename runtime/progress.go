package runtime

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

const notifyProgress = "notifications/progress"

// Progress reports the progress of the request whose handler has ctx:
// progress so far, out of total when total > 0, with an optional message
// for people. It sends notifications/progress when the request asked for
// progress (it carried params._meta.progressToken) and is a no-op
// otherwise. Progress must increase with each report; a report that does
// not is refused with an error and not sent. Over Streamable HTTP the
// notifications go on the request's event stream.
func Progress(ctx context.Context, progress, total float64, message string) error {
	c, _ := ctx.Value(callKey{}).(*callContext)
	if c == nil {
		return nil // not a request's context: no token
	}
	if math.IsNaN(progress) || math.IsInf(progress, 0) || math.IsNaN(total) || math.IsInf(total, 0) {
		return fmt.Errorf("runtime: Progress: progress %v and total %v must be finite numbers", progress, total)
	}
	c.mu.Lock()
	if c.talk == nil {
		c.talk = &callTalk{}
	}
	t := c.talk
	c.mu.Unlock()

	t.sendMu.Lock() // reports go out in the order they were checked
	defer t.sendMu.Unlock()
	c.mu.Lock()
	if err := c.err; err != nil {
		c.mu.Unlock()
		return err
	}
	if !t.tokenRead {
		t.token, t.tokenRead = progressToken(c.params), true
	}
	if t.token == nil {
		c.mu.Unlock()
		return nil
	}
	if t.progressed && !(progress > t.progress) {
		last := t.progress
		c.mu.Unlock()
		return fmt.Errorf("runtime: Progress: progress %v does not exceed the last one reported, %v", progress, last)
	}
	t.progress, t.progressed = progress, true
	b := append([]byte(`{"progressToken":`), t.token...)
	r := c.r
	c.mu.Unlock()

	b = append(b, `,"progress":`...)
	b = strconv.AppendFloat(b, progress, 'g', -1, 64)
	if total > 0 {
		b = append(b, `,"total":`...)
		b = strconv.AppendFloat(b, total, 'g', -1, 64)
	}
	if message != "" {
		b = append(b, `,"message":`...)
		b = appendString(b, message)
	}
	b = append(b, '}')
	buf := getBuffer()
	defer putBuffer(buf)
	*buf = appendNotification((*buf)[:0], notifyProgress, b)
	return r.Related(*buf)
}

// progressToken returns a copy of params._meta.progressToken of a request,
// or nil. Only a string or a number is a token.
func progressToken(params []byte) []byte {
	if len(params) == 0 {
		return nil
	}
	var d mcpimpl.Decoder
	d.Reset(params, "params")
	if !d.Object() {
		return nil
	}
	for {
		key, ok := d.Field()
		if !ok {
			return nil
		}
		if string(key) != "_meta" || d.Peek() != mcpimpl.ObjectValue {
			d.Skip()
			continue
		}
		d.Object()
		for {
			key, ok := d.Field()
			if !ok {
				return nil
			}
			if k := d.Peek(); string(key) == "progressToken" && (k == mcpimpl.StringValue || k == mcpimpl.NumberValue) {
				tok, _ := d.Raw()
				return tok
			}
			d.Skip()
		}
	}
}
