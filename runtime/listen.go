package runtime

// listen answers subscriptions/listen.
func (s *Session) listen(m *message, q *request26) {
	s.replyError(q.r, m.id, &Error{Code: CodeMethodNotFound, Message: "Method not found: subscriptions/listen"})
}
