package httpwire

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// NewPool returns a transport of at most conns keep-alive connections to
// one host, for many clients to share: a session is state on the server,
// not a connection, so thousands of sessions can be opened and kept over a
// few sockets, as behind a proxy that pools its connections.
func NewPool(conns int) *http.Transport {
	return &http.Transport{
		Proxy:               nil, // loopback only
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
		DisableCompression:  true,
		IdleConnTimeout:     10 * time.Minute,
	}
}

// NewPooledClient returns a client of the endpoint at url that sends its
// requests over tr, a transport shared with other clients (see NewPool).
// Its Close ends its session but leaves tr's connections open.
func NewPooledClient(url string, tr *http.Transport) *Client {
	return &Client{url: url, tr: tr, shared: true, hc: &http.Client{Transport: tr, Timeout: callTimeout}}
}

// OpenSessions opens n sessions with the endpoint at url, from conns
// goroutines at once over tr: each sends initialize and
// notifications/initialized and then nothing more. Every session must have
// an id of its own. On an error the sessions opened so far are returned
// with it, for the caller to close.
func OpenSessions(url string, tr *http.Transport, n, conns int) ([]*Client, error) {
	cs := make([]*Client, n)
	for i := range cs {
		cs[i] = NewPooledClient(url, tr)
	}
	next := make(chan int)
	errs := make(chan error, conns)
	var wg sync.WaitGroup
	for range max(1, conns) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := cs[i].Initialize(); err != nil {
					errs <- fmt.Errorf("session %d of %d: %v", i+1, n, err)
					return
				}
				if cs[i].session == "" {
					errs <- fmt.Errorf("session %d of %d: %w", i+1, n, ErrNoSession)
					return
				}
				cs[i].body, cs[i].req = bytes.Buffer{}, nil // an idle client keeps no answer around
			}
		}()
	}
	var first error
feed:
	for i := range cs {
		select {
		case next <- i:
		case first = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil {
		select {
		case first = <-errs:
		default:
		}
	}
	seen := make(map[string]bool, n)
	opened := cs[:0:0]
	for _, c := range cs {
		if c.session == "" {
			continue
		}
		opened = append(opened, c)
		if seen[c.session] && first == nil {
			first = fmt.Errorf("two sessions were given the same id %q", c.session)
		}
		seen[c.session] = true
	}
	return opened, first
}

// CheckSessions makes one call in each of every-th session of cs, the last
// included, and checks the answer: the sessions are still there.
func CheckSessions(cs []*Client, every int) error {
	every = max(1, every)
	for i := 0; i < len(cs); i += every {
		if err := cs[i].Call(); err != nil {
			return fmt.Errorf("session %d of %d: %v", i+1, len(cs), err)
		}
	}
	if (len(cs)-1)%every != 0 {
		if err := cs[len(cs)-1].Call(); err != nil {
			return fmt.Errorf("session %d of %d: %v", len(cs), len(cs), err)
		}
	}
	return nil
}

// CloseSessions ends every session of cs, from conns goroutines at once.
func CloseSessions(cs []*Client, conns int) error {
	next := make(chan *Client)
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for range max(1, conns) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				if err := c.Close(); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for _, c := range cs {
		next <- c
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		return fmt.Errorf("%d of %d sessions: %w", len(errs), len(cs), errs[0])
	}
	return nil
}

// IdleConformance serves h at Path on a loopback test server and checks
// what the idle-sessions benchmark relies on: n sessions opened over a pool
// of conns connections use no more connections than that, get ids of their
// own and are all kept (a call in each succeeds afterwards), and a session
// ended with DELETE is gone (404).
func IdleConformance(t testing.TB, h http.Handler, n, conns int) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	srv := httptest.NewUnstartedServer(mux)
	var opened atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	pool := NewPool(conns)
	defer pool.CloseIdleConnections()
	cs, err := OpenSessions(srv.URL+Path, pool, n, conns)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != n {
		t.Fatalf("%d sessions opened, want %d", len(cs), n)
	}
	if err := CheckSessions(cs, 1); err != nil {
		t.Fatal(err)
	}
	if got := int(opened.Load()); got > conns {
		t.Errorf("%d sessions used %d connections, want at most %d", n, got, conns)
	}
	if err := CloseSessions(cs, conns); err != nil {
		t.Fatal(err)
	}
	if err := cs[0].Call(); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("a call in a session ended with DELETE: want HTTP 404, got %v", err)
	}
}
