package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/internal/workers"
	"lk/views"
)

// home is the account's first page: the greeting, the personal data card
// and the active orders. The profile and the five kinds of orders are asked
// for at once.
func (s *Server) home(c *echo.Context) error {
	sess := web.SessionOf(c)
	ctx := c.Request().Context()
	var (
		info    gateway.PersonalInfo
		infoErr error
		set     orderSet
		wg      workers.Group
	)
	wg.Go(func() { info, infoErr = s.account.ClientInfo(ctx, sess.Token) })
	set = s.fetchOrders(ctx, sess.GUID)
	wg.Wait()

	h := views.Home{Name: sess.Name}
	if infoErr != nil {
		if msg, out := profileRefused(infoErr); out {
			s.endSession(c, sess)
			return s.signedOutWith(c, msg)
		}
		s.log.WarnContext(c.Request().Context(), "profile not loaded", "err", infoErr)
		h.ProfileError = msgProfileFailed
	} else {
		h.Profile = s.profileView(info)
		s.heard(sess, info)
		h.Name = s.keepName(c, sess, firstName(info.FIO))
	}
	h.Active, _ = s.activeAndHistory(c, set)
	h.Failed, h.AllFailed, h.Problems = len(set.failed) > 0, set.allFailed(), set.problems()
	p := s.page(c, "Мой кабинет", "Личный кабинет клиента курорта.")
	p.Nav = views.NavHome
	s.offerOffline(c, &p, set)
	if p.User != nil {
		p.User.Name = h.Name
	}
	return s.render(c, http.StatusOK, views.HomePage(p, h))
}

func (s *Server) profileView(info gateway.PersonalInfo) *views.Profile {
	p := &views.Profile{FIO: info.FIO, Phone: views.Phone(info.Tel), Email: info.Email, Gender: genderLabel(info.Gender)}
	if b, err := gateway.ParseBirthdate(info.Birthdate, s.loc); err == nil && !b.IsZero() {
		p.Birthdate = views.Date(b)
	}
	return p
}

func genderLabel(g string) string {
	switch g {
	case "MALE":
		return "Мужской"
	case "FEMALE":
		return "Женский"
	}
	return ""
}
