package handlers

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

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
