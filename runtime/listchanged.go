package runtime

// notifyToolsChanged is sent to every session when the tools change.
const notifyToolsChanged = "notifications/tools/list_changed"

// RemoveTool unregisters the named tool and reports whether it was
// registered. Calls of it already running finish; later calls get
// "Unknown tool". Connected clients are told that the list changed.
func (s *Server) RemoveTool(name string) bool {
	s.mu.Lock()
	t := s.index[name]
	if t == nil {
		s.mu.Unlock()
		return false
	}
	delete(s.index, name)
	tools := make([]*Tool, 0, len(s.tools)-1)
	for _, x := range s.tools {
		if x != t {
			tools = append(tools, x)
		}
	}
	s.tools = tools // a new slice: pages being built hold the old one
	s.mu.Unlock()
	s.lists.reset()
	s.toolsChanged()
	return true
}

// toolsChanged tells every connected client that the list of tools
// changed, once it has said it is initialized.
func (s *Server) toolsChanged() { s.notifyAll(notifyToolsChanged, nil, isReady) }

// isReady reports whether the client of s sent notifications/initialized.
func isReady(s *Session) bool { return s.talk.ready.Load() }
