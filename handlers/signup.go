package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

func (s *Server) signupPage(c *echo.Context) views.Page {
	return s.smsPage(c, "Регистрация", "Регистрация в личном кабинете курорта по номеру телефона.")
}

func (s *Server) signupForm(c *echo.Context) error {
	return s.render(c, http.StatusOK, views.SignupPage(s.signupPage(c), views.SignupForm{Props: s.smsProps("signup")}))
}

func (s *Server) signupSubmit(c *echo.Context) error {
	f := views.SignupForm{
		Phone:     strings.TrimSpace(c.FormValue("phone")),
		FirstName: strings.TrimSpace(c.FormValue("firstName")),
		LastName:  strings.TrimSpace(c.FormValue("lastName")),
		Title:     web.MsgOops,
		Props:     s.smsProps("signup"),
	}
	show := func(status int, retry time.Duration) error {
		return web.Respond(c, status, refusal(f.Errors, retry), func() error {
			p := s.signupPage(c)
			p.Invalid = true
			return s.render(c, status, views.SignupPage(p, f))
		})
	}
	first, _ := cleanName(f.FirstName)
	last, _ := cleanName(f.LastName)
	if f.Phone == "" || first == "" || last == "" {
		f.Errors.Add("", msgFillRequired)
	}
	phone, _ := validPhone(f.Phone, &f.Errors)
	checkName(&f.Errors, "firstName", &f.FirstName, msgFirstNameEmpty, "Имя должно быть не длиннее 50 символов")
	checkName(&f.Errors, "lastName", &f.LastName, msgLastNameEmpty, "Фамилия должна быть не длиннее 50 символов")
	if len(f.Errors) > 0 {
		return show(http.StatusUnprocessableEntity, 0)
	}
	// The code is sent by auth/login2f after the registration, within the
	// code limits taken before both.
	status, retry := s.withCodeLimits(c, "signup", phone, &f.Errors, func(ctx context.Context) error {
		err := s.account.Register(ctx, gateway.Registration{PhoneNumber: phone, FirstName: f.FirstName, LastName: f.LastName, TypeCode: 1})
		if err != nil {
			return err
		}
		err = s.account.Login(ctx, phone, false)
		s.countStep(ctx, "code_request", phone, err)
		return err
	}, func(err error) (int, string, string) {
		f := explain(err, msgUnknownError, msgNoConnection)
		if !f.answered { // no answer of the provider's own
			return http.StatusServiceUnavailable, "", msgNoConnection
		}
		return f.status, "", f.message
	})
	if status != http.StatusOK {
		return show(status, retry)
	}
	return s.codeSent(c, pending{Phone: phone, Mode: "signup", SentAt: s.now()})
}

// logout revokes the session on our side too and deletes the cookie. It
// never says the customer is out unless the revocation is stored: when the
// store cannot take it, the customer is told so and keeps the cookie, which
// would otherwise open the account again for whoever holds a copy of it.
func (s *Server) logout(c *echo.Context) error {
	sess := web.SessionOf(c)
	if web.SessionUnknown(c) && sess == nil {
		// The store could not say whether the cookie was signed out
		// already; revoking it again is harmless, and the only way to know
		// that it is out.
		sess = s.sessions.CookieSession(c.Request())
	}
	if sess != nil {
		s.log.InfoContext(c.Request().Context(), "sign-out", "phone", gateway.MaskPhone(sess.Phone))
	}
	if err := s.sessions.End(c.Request().Context(), c.Response(), sess); err != nil {
		s.log.ErrorContext(c.Request().Context(), "sign-out not stored", "err", err)
		c.Response().Header().Set("Retry-After", "60")
		return &web.Error{Status: http.StatusServiceUnavailable, Title: "Выход не выполнен", Message: msgSignOutFailed}
	}
	s.clearPending(c.Response())
	c.Response().Header().Set("Clear-Site-Data", clearSiteData) // the offline copies go too
	return web.SeeOther(c, views.PathLogin)
}
