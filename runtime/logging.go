package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
)

const (
	methodSetLevel = "logging/setLevel"
	notifyMessage  = "notifications/message"
)

// LogLevel is the severity of a log message sent to the client, one of the
// RFC 5424 severities as MCP names them.
type LogLevel int

// The log levels, least severe first.
const (
	LevelDebug LogLevel = iota
	LevelInfo
	LevelNotice
	LevelWarning
	LevelError
	LevelCritical
	LevelAlert
	LevelEmergency
)

var levelNames = [...]string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// String returns the level's MCP name, such as "warning".
func (l LogLevel) String() string {
	if l < LevelDebug || l > LevelEmergency {
		return fmt.Sprintf("LogLevel(%d)", int(l))
	}
	return levelNames[l]
}

// levelOff is the client's level until it sets one with logging/setLevel:
// above every level, so that no message is sent before the client asks for
// them (as the official Go SDK does, and as revision 2026-07-28 requires).
const levelOff = LevelEmergency + 1

// Slog returns the slog level that l maps to: debug, info and notice
// (info+2), warning, error, and error+4, +8, +12 for the severer levels.
func (l LogLevel) Slog() slog.Level {
	switch {
	case l <= LevelDebug:
		return slog.LevelDebug
	case l == LevelInfo:
		return slog.LevelInfo
	case l == LevelNotice:
		return slog.LevelInfo + 2
	case l == LevelWarning:
		return slog.LevelWarn
	case l == LevelError:
		return slog.LevelError
	}
	return slog.LevelError + slog.Level(4*(l-LevelError))
}

// levelOf maps an slog level to the MCP level it falls in, the inverse of
// [LogLevel.Slog].
func levelOf(l slog.Level) LogLevel {
	switch {
	case l < slog.LevelInfo:
		return LevelDebug
	case l < slog.LevelInfo+2:
		return LevelInfo
	case l < slog.LevelWarn:
		return LevelNotice
	case l < slog.LevelError:
		return LevelWarning
	case l < slog.LevelError+4:
		return LevelError
	case l < slog.LevelError+8:
		return LevelCritical
	case l < slog.LevelError+12:
		return LevelAlert
	}
	return LevelEmergency
}

// setLevel answers logging/setLevel.
func (s *Session) setLevel(params []byte) *Error {
	if params == nil {
		params = emptyObject
	}
	d := &s.dec
	d.Reset(params, "params")
	level, has := "", false
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			if string(key) == "level" {
				level, has = d.String()
			} else {
				d.Skip()
			}
		}
	}
	if err := d.Err(); err != nil {
		return invalidParams(err)
	}
	for i, name := range levelNames {
		if has && name == level {
			s.talk.level.Store(int32(i) + 1)
			return nil
		}
	}
	msg := "Invalid params: params.level is required"
	if has {
		msg = "Invalid params: params.level " + strconv.Quote(level) + " is not a log level"
	}
	return &Error{Code: CodeInvalidParams, Message: msg + "; use one of " + strings.Join(levelNames[:], ", ")}
}

// clientLevel returns the least severe level the client wants, levelOff
// before it says.
func (s *Session) clientLevel() LogLevel {
	if n := s.talk.level.Load(); n > 0 {
		return LogLevel(n - 1)
	}
	return levelOff
}

// Log sends a log message to the client of ctx, a handler's context, as
// notifications/message: data is any value that marshals to JSON (a string,
// a map, a struct). A message below the level the client asked for with
// logging/setLevel goes to the server's log instead, as does every message
// until the client sets a level.
// Within a request, over Streamable HTTP, it goes on the request's event
// stream.
func Log(ctx context.Context, level LogLevel, data any) error {
	t, err := talkerOf(ctx, "Log")
	if err != nil {
		return err
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("runtime: Log: the data cannot be sent as JSON: %w", err)
	}
	return t.log(ctx, level, "", raw)
}

// log sends raw, a JSON value, at level when the client wants it, else
// writes it to the server's log.
func (t talker) log(ctx context.Context, level LogLevel, logger string, raw []byte) error {
	if level < t.clientLevel() {
		t.s.srv.opts.logger.Log(ctx, level.Slog(), "log message below the client's level", "logger", logger, "data", json.RawMessage(raw))
		return nil
	}
	b := []byte(`{"level":"`)
	b = append(b, level.String()...)
	b = append(b, '"')
	if logger != "" {
		b = append(b, `,"logger":`...)
		b = appendString(b, logger)
	}
	b = append(b, `,"data":`...)
	b = append(b, raw...)
	return t.notify(notifyMessage, append(b, '}'))
}

// Logger returns a logger whose records go to the client of ctx, a
// handler's context, as notifications/message, when at or above the level
// the client asked for; the others go to the server's log (outside a
// session, to slog's default logger). See [NewLogHandler].
func Logger(ctx context.Context) *slog.Logger {
	next := slog.Default().Handler()
	if s := SessionFromContext(ctx); s != nil {
		next = s.srv.opts.logger.Handler()
	}
	h := NewLogHandler(next, "").(*logHandler)
	h.ctx = ctx
	return slog.New(h)
}

// NewLogHandler returns an slog.Handler that sends each record to the
// client of the context it is logged with (Logger.InfoContext(ctx, …) with
// a handler's ctx) as notifications/message, when the client wants its
// level; records it does not send go to next. The message's data is a JSON
// object holding the record's message as "msg" and its attributes; logger,
// if not "", names the logger to the client. slog levels map to MCP levels
// as [LogLevel.Slog] describes.
func NewLogHandler(next slog.Handler, logger string) slog.Handler {
	h := &logHandler{next: next, logger: logger, sink: &logSink{}}
	h.json = slog.NewJSONHandler(h.sink, &slog.HandlerOptions{
		Level: slog.LevelDebug - 100,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{}
			}
			return a
		},
	})
	return h
}

// logHandler is the handler of [NewLogHandler] and [Logger].
type logHandler struct {
	ctx    context.Context // the handler's context, for Logger; else nil
	next   slog.Handler
	json   slog.Handler // renders a record's data into sink
	sink   *logSink
	logger string
}

// logSink collects what the JSON handler writes for one record.
type logSink struct {
	mu  sync.Mutex
	buf []byte
}

func (k *logSink) Write(p []byte) (int, error) {
	k.buf = append(k.buf, p...)
	return len(p), nil
}

// session returns the session to log to and the context to use.
func (h *logHandler) session(ctx context.Context) (*Session, context.Context) {
	if s := SessionFromContext(ctx); s != nil {
		return s, ctx
	}
	if h.ctx != nil {
		return SessionFromContext(h.ctx), h.ctx
	}
	return nil, ctx
}

// Enabled reports whether the client or next wants records of level l.
func (h *logHandler) Enabled(ctx context.Context, l slog.Level) bool {
	if s, _ := h.session(ctx); s != nil && levelOf(l) >= s.clientLevel() {
		return true
	}
	return h.next.Enabled(ctx, l)
}

// Handle sends r to the client when it wants r's level, else to next.
func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	s, ctx := h.session(ctx)
	level := levelOf(r.Level)
	if s == nil || level < s.clientLevel() {
		if h.next.Enabled(ctx, r.Level) {
			return h.next.Handle(ctx, r)
		}
		return nil
	}
	t, err := talkerOf(ctx, "log handler")
	if err != nil {
		return err
	}
	h.sink.mu.Lock()
	h.sink.buf = h.sink.buf[:0]
	err = h.json.Handle(ctx, r)
	raw := bytes.TrimSpace(append([]byte(nil), h.sink.buf...))
	h.sink.mu.Unlock()
	if err != nil {
		return err
	}
	return t.log(ctx, level, h.logger, raw)
}

// WithAttrs returns a handler whose records carry attrs.
func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.next, c.json = h.next.WithAttrs(attrs), h.json.WithAttrs(attrs)
	return &c
}

// WithGroup returns a handler whose later attributes are in group name.
func (h *logHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.next, c.json = h.next.WithGroup(name), h.json.WithGroup(name)
	return &c
}
