package handlers

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// Texts of sign-up (SPEC §5, §8).
const (
	msgFillRequired   = "Пожалуйста, заполните все обязательные поля."
	msgUnknownError   = "Произошла неизвестная ошибка."
	msgNoConnection   = "Не удалось подключиться к серверу. Попробуйте позже."
	msgFirstNameEmpty = "Введите имя"
	msgLastNameEmpty  = "Введите фамилию"
	maxNameLen        = 50
)

func (s *Server) signupPage(c *echo.Context) views.Page {
	p := s.page(c, "Регистрация", "Регистрация в личном кабинете курорта по номеру телефона.")
	p.Index = true
	p.Islands = []string{views.SmsIsland, views.PhoneEnhance}
	return p
}

func (s *Server) signupForm(c *echo.Context) error {
	if session(c) != nil {
		return seeOther(c, views.PathHome)
	}
	return render(c, http.StatusOK, views.SignupPage(s.signupPage(c), views.SignupForm{Props: s.smsProps("signup")}))
}

// signupSubmit registers the customer (reg/registration) and sends the code.
func (s *Server) signupSubmit(c *echo.Context) error {
	f := views.SignupForm{
		Phone:     strings.TrimSpace(c.FormValue("phone")),
		FirstName: strings.TrimSpace(c.FormValue("firstName")),
		LastName:  strings.TrimSpace(c.FormValue("lastName")),
		Title:     msgOops,
		Props:     s.smsProps("signup"),
	}
	show := func(status int, retry time.Duration) error {
		if wantsJSON(c) {
			return s.jsonRefusal(c, status, f.Errors, retry)
		}
		p := s.signupPage(c)
		p.Invalid = true
		return render(c, status, views.SignupPage(p, f))
	}
	if f.Phone == "" || f.FirstName == "" || f.LastName == "" {
		f.Errors.Add("", msgFillRequired)
	}
	phone, _ := validPhone(f.Phone, &f.Errors)
	if f.FirstName == "" {
		f.Errors.Add("firstName", msgFirstNameEmpty)
	} else if len([]rune(f.FirstName)) > maxNameLen {
		f.Errors.Add("firstName", "Имя должно быть не длиннее 50 символов")
	}
	if f.LastName == "" {
		f.Errors.Add("lastName", msgLastNameEmpty)
	} else if len([]rune(f.LastName)) > maxNameLen {
		f.Errors.Add("lastName", "Фамилия должна быть не длиннее 50 символов")
	}
	if len(f.Errors) > 0 {
		return show(http.StatusUnprocessableEntity, 0)
	}
	if r := s.limits.AllowCode(phone, c.RealIP(), s.now()); r != nil {
		s.refused(c, "signup", phone, r)
		f.Errors.Add("", r.Message)
		return show(http.StatusTooManyRequests, r.RetryAfter)
	}
	ctx := c.Request().Context()
	err := s.gw.Register(ctx, gateway.Registration{PhoneNumber: phone, FirstName: f.FirstName, LastName: f.LastName, TypeCode: 1})
	s.attempt("signup", phone, err)
	if err != nil {
		var pe *gateway.ProviderError
		switch {
		case errors.As(err, &pe) && pe.Message != "":
			f.Errors.Add("", pe.Message)
			return show(http.StatusUnprocessableEntity, 0)
		case errors.As(err, &pe):
			f.Errors.Add("", msgUnknownError)
			return show(http.StatusUnprocessableEntity, 0)
		default:
			f.Errors.Add("", msgNoConnection)
			return show(http.StatusServiceUnavailable, 0)
		}
	}
	// The code itself is sent by auth/login2f, within the limit just counted.
	err = s.gw.Login(ctx, phone, false)
	s.attempt("code_request", phone, err)
	if err != nil {
		var pe *gateway.ProviderError
		if errors.As(err, &pe) && pe.Message != "" {
			f.Errors.Add("", pe.Message)
			return show(http.StatusUnprocessableEntity, 0)
		}
		f.Errors.Add("", msgNoConnection)
		return show(http.StatusServiceUnavailable, 0)
	}
	return s.codeSent(c, pending{Phone: phone, Mode: "signup", SentAt: s.now()})
}

// logout revokes the session on our side too and deletes the cookie.
func (s *Server) logout(c *echo.Context) error {
	sess := session(c)
	if sess != nil {
		s.log.Info("sign-out", "phone", gateway.MaskPhone(sess.Phone))
	}
	if err := s.sessions.End(c.Request().Context(), c.Response(), sess); err != nil {
		s.log.Error("sign-out not stored", "err", err)
		return &httpError{http.StatusServiceUnavailable, "Выход не выполнен", msgSignOutFailed}
	}
	s.sessions.clearPending(c.Response())
	return seeOther(c, views.PathLogin)
}
