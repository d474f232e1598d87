package handlers

import (
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
)

// nameKept is how long this instance shares a customer's name read from
// the profile among its pages: at most one profile read per customer in
// that time (reads of several tabs at once are one, gateway's flights), and
// a name changed at the resort shows on every page within it.
const nameKept = 5 * time.Minute

// names are the customers' first names as the profile last said, by client
// id, for the shell of every page.
type names struct {
	mu sync.Mutex
	m  map[string]keptName
}

type keptName struct {
	name string
	at   time.Time
}

func (n *names) get(guid string, now time.Time) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	k, ok := n.m[guid]
	if !ok || now.Sub(k.at) >= nameKept || now.Before(k.at) {
		return "", false
	}
	return k.name, true
}

func (n *names) put(guid, name string, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.m == nil {
		n.m = map[string]keptName{}
	}
	if len(n.m) >= 4096 { // memory follows the customers of the last minutes
		for g, k := range n.m {
			if now.Sub(k.at) >= nameKept || now.Before(k.at) {
				delete(n.m, g)
			}
		}
	}
	n.m[guid] = keptName{name, now}
}

// heard keeps the name of a profile a page has just read.
func (s *Server) heard(sess *web.Session, info gateway.PersonalInfo) {
	s.names.put(sess.GUID, firstName(info.FIO), s.now())
}

// shellName is the customer's first name for the page's shell, from the
// profile as the resort has it now, shared for nameKept; the session keeps
// it, so that a page whose read fails shows the last one known.
func (s *Server) shellName(c *echo.Context, sess *web.Session) string {
	name, ok := s.names.get(sess.GUID, s.now())
	if !ok {
		info, err := s.account.ClientInfo(c.Request().Context(), sess.Token)
		if err != nil {
			// The page goes on with the name it has; the profile's own
			// pages say what failed.
			s.log.Debug("the shell's name not read", "err", err)
			return sess.Name
		}
		s.heard(sess, info)
		name = firstName(info.FIO)
	}
	if name != sess.Name {
		sess.Name = name
		if err := s.sessions.Write(c.Response(), sess); err != nil {
			s.log.Warn("session name not kept", "err", err)
		}
	}
	return name
}
