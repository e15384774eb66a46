package runtime

// LiveSessions returns how many sessions s holds as live, those that
// notifications of its own accord go to.
func LiveSessions(s *Server) int {
	s.live.mu.Lock()
	defer s.live.mu.Unlock()
	return len(s.live.set)
}
