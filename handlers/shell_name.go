package handlers

import (
	"io/fs"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

// shell is every page's frame: the site, its files, and the customer's first
// name as the profile last said.
type shell struct {
	site      *views.Site
	assets    *views.Assets
	static    fs.FS // the files behind the assets
	publicURL string
	sessions  *web.Sessions
	names     names
	now       func() time.Time
}

// absolute is path as an absolute URL of the account, never built from the
// Host anyone can set.
func (sh *shell) absolute(path string) string { return sh.publicURL + path }

// Page is a page's frame with the name the shell knows, asking nothing of
// the provider: also an error's page, which may answer a stranger.
func (sh *shell) Page(c *echo.Context, title, description string) views.Page {
	p := views.Page{Title: title, Description: description, Nonce: web.Nonce(c), Site: sh.site, Assets: sh.assets}
	if sess := web.SessionOf(c); sess != nil {
		name, ok := sh.names.get(sess.GUID, sh.now())
		if !ok {
			name = sess.Name
		}
		p.User = &views.User{Name: name}
		if !web.IsSpeculative(c) {
			p.Notice = sh.sessions.TakeNotice(c.Response(), c.Request())
		}
		p.Speculate = !web.SavesData(c.Request())
	}
	return p
}

// nameKept bounds both the profile reads per customer for the shell and how
// late a name changed at the resort shows on every page.
const nameKept = 5 * time.Minute

// names are the customers' first names by client id, for every page's shell.
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
	s.shell.names.put(sess.GUID, firstName(info.FIO), s.now())
}

// shellName is the customer's first name from the profile, shared for nameKept;
// the session keeps it, so a failed read shows the last one known.
func (s *Server) shellName(c *echo.Context, sess *web.Session) string {
	name, ok := s.shell.names.get(sess.GUID, s.now())
	if !ok {
		info, err := s.account.ClientInfo(c.Request().Context(), sess.Token)
		if err != nil {
			// The page goes on with the name it has; the profile says what failed.
			s.log.DebugContext(c.Request().Context(), "the shell's name not read", "err", err)
			return sess.Name
		}
		s.heard(sess, info)
		name = firstName(info.FIO)
	}
	return s.keepName(c, sess, name)
}

// page is a page's frame; its shell names the customer as the profile does.
func (s *Server) page(c *echo.Context, title, description string) views.Page {
	p := s.shell.Page(c, title, description)
	if p.User != nil {
		p.User.Name = s.shellName(c, web.SessionOf(c))
	}
	return p
}

// keepName keeps the profile's name in the session for the other pages, so a
// name changed at the resort shows at once, not at the next sign-in.
func (s *Server) keepName(c *echo.Context, sess *web.Session, name string) string {
	if name != sess.Name {
		sess.Name = name
		if err := s.sessions.Write(c.Response(), sess); err != nil {
			s.log.WarnContext(c.Request().Context(), "session name not kept", "err", err)
		}
	}
	return name
}

// render answers with a page, knowing whether a provider call was refused
// for want of room.
func (s *Server) render(c *echo.Context, status int, comp templ.Component) error {
	return web.Render(c, status, comp, gateway.Busy(c.Request().Context()))
}

// endSession signs out: the cookie goes whatever the store says, as the token
// is no good any more.
func (s *Server) endSession(c *echo.Context, sess *web.Session) {
	if err := s.sessions.End(c.Request().Context(), c.Response(), sess); err != nil {
		s.log.ErrorContext(c.Request().Context(), "sign-out not stored", "err", err)
		s.sessions.Clear(c.Response())
	}
}
