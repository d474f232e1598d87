package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// Texts of sign-in (SPEC §5, §8).
const (
	msgOops          = "Ой!"
	msgRequestFailed = "Не удалось выполнить запрос. Попробуйте позже."
	msgPhoneEmpty    = "Введите номер телефона"
	msgPhoneInvalid  = "Введите номер мобильного телефона в формате +7 (9XX) XXX-XX-XX"
	msgCodeInvalid   = "Введите 4 цифры кода из SMS"
	msgCodeWrong     = "Неверный код. Проверьте его и попробуйте ещё раз."
	msgCodeSent      = "Новый код отправлен."
	msgNoPending     = "Время ввода кода истекло. Введите номер ещё раз."
)

func (s *Server) smsProps(mode string) views.SmsProps {
	p := views.SmsProps{
		Mode: mode, Form: "#" + mode + "-form", RequestURL: views.PathLogin,
		ConfirmURL: views.PathLoginCode, ResendURL: views.PathLoginResend, Home: views.PathHome,
	}
	if mode == "signup" {
		p.RequestURL = views.PathSignup
	}
	if s.site.SandboxURL != "" {
		p.SandboxHint = "Песочница: SMS не отправляются, код можно посмотреть по адресу " + s.site.SandboxURL + "/sandbox/sms/{телефон}."
	}
	return p
}

func (s *Server) loginPage(c *echo.Context) views.Page {
	p := s.page(c, "Авторизация", "Вход в личный кабинет курорта: заказы горнолыжной школы, аквапарка, отеля, беседок и банкетных залов. Вход по номеру телефона и коду из SMS.")
	p.Index = true
	p.Islands = []string{views.SmsIsland, views.PhoneEnhance}
	return p
}

func (s *Server) loginForm(c *echo.Context) error {
	if session(c) != nil {
		return seeOther(c, views.PathHome)
	}
	return render(c, http.StatusOK, views.LoginPage(s.loginPage(c), views.LoginForm{Props: s.smsProps("login")}))
}

// loginSubmit asks the provider to send a code (auth/login2f).
func (s *Server) loginSubmit(c *echo.Context) error {
	f := views.LoginForm{Phone: strings.TrimSpace(c.FormValue("phone")), Title: msgOops, Props: s.smsProps("login")}
	show := func(status int, retry time.Duration) error {
		if wantsJSON(c) {
			return s.jsonRefusal(c, status, f.Errors, retry)
		}
		p := s.loginPage(c)
		p.Invalid = true
		return render(c, status, views.LoginPage(p, f))
	}
	phone, ok := validPhone(f.Phone, &f.Errors)
	if !ok {
		return show(http.StatusUnprocessableEntity, 0)
	}
	status, retry := s.sendCode(c, phone, false, &f.Errors)
	if status != http.StatusOK {
		return show(status, retry)
	}
	return s.codeSent(c, pending{Phone: phone, Mode: "login", SentAt: s.now()})
}

// validPhone checks the phone field and adds its error.
func validPhone(raw string, errs *views.Errors) (string, bool) {
	if raw == "" {
		errs.Add("phone", msgPhoneEmpty)
		return "", false
	}
	phone, ok := parsePhone(raw)
	if !ok {
		errs.Add("phone", msgPhoneInvalid)
	}
	return phone, ok
}

// sendCode asks the provider for a code within the limits; on a refusal it
// adds the message and gives the status and when to retry.
func (s *Server) sendCode(c *echo.Context, phone string, resend bool, errs *views.Errors) (int, time.Duration) {
	step := "code_request"
	if resend {
		step = "code_resend"
	}
	if r := s.limits.AllowCode(phone, c.RealIP(), s.now()); r != nil {
		s.refused(c, step, phone, r)
		errs.Add("", r.Message)
		return http.StatusTooManyRequests, r.RetryAfter
	}
	err := s.gw.Login(c.Request().Context(), phone, resend)
	s.attempt(step, phone, err)
	if err != nil {
		var pe *gateway.ProviderError
		if errors.As(err, &pe) && pe.Message != "" {
			errs.Add("phone", pe.Message)
			return http.StatusUnprocessableEntity, 0
		}
		errs.Add("", msgRequestFailed)
		return http.StatusServiceUnavailable, 0
	}
	return http.StatusOK, 0
}

// codeSent remembers the sign-in in progress and leads to the code step.
func (s *Server) codeSent(c *echo.Context, p pending) error {
	if err := s.sessions.writePending(c.Response(), p); err != nil {
		return err
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, jsonAnswer{OK: true, Phone: views.MaskedPhone(p.Phone), ResendIn: int(s.limits.Interval() / time.Second)})
	}
	return seeOther(c, views.PathLoginCode)
}

func (s *Server) codePage(c *echo.Context, p pending, f views.CodeForm) views.CodeForm {
	f.Masked = views.MaskedPhone(p.Phone)
	f.Mode = p.Mode
	if wait := s.limits.NextCode(p.Phone, s.now()).Sub(s.now()); wait > 0 {
		f.ResendAfter = int((wait + time.Second - 1) / time.Second)
	}
	if s.site.SandboxURL != "" {
		f.SandboxURL = s.site.SandboxURL + "/sandbox/sms/" + p.Phone
	}
	return f
}

func (s *Server) renderCode(c *echo.Context, status int, p pending, f views.CodeForm) error {
	pg := s.page(c, "Код из SMS", "Введите код из SMS, чтобы войти в личный кабинет.")
	pg.Invalid = len(f.Errors) > 0
	return render(c, status, views.CodePage(pg, s.codePage(c, p, f)))
}

func (s *Server) codeForm(c *echo.Context) error {
	p, ok := s.sessions.readPending(c.Request())
	if !ok {
		return seeOther(c, views.PathLogin)
	}
	f := views.CodeForm{}
	if c.QueryParam("sent") == "1" {
		f.Notice = msgCodeSent
	}
	return s.renderCode(c, http.StatusOK, p, f)
}

// codeSubmit checks the code with the provider (auth/loginConfirm) and signs in.
func (s *Server) codeSubmit(c *echo.Context) error {
	p, ok := s.sessions.readPending(c.Request())
	if !ok {
		return s.lostPending(c)
	}
	f := views.CodeForm{Code: c.FormValue("code")}
	show := func(status int, retry time.Duration) error {
		if wantsJSON(c) {
			return s.jsonRefusal(c, status, f.Errors, retry)
		}
		return s.renderCode(c, status, p, f)
	}
	code, ok := parseCode(f.Code)
	if !ok {
		f.Errors.Add("code", msgCodeInvalid)
		return show(http.StatusUnprocessableEntity, 0)
	}
	if r := s.limits.AllowVerify(p.Phone, s.now()); r != nil {
		s.refused(c, "code_confirm", p.Phone, r)
		f.Errors.Add("code", r.Message)
		return show(http.StatusTooManyRequests, r.RetryAfter)
	}
	ctx := c.Request().Context()
	token, err := s.gw.LoginConfirm(ctx, p.Phone, code)
	s.attempt("code_confirm", p.Phone, err)
	if err != nil {
		var pe *gateway.ProviderError
		if errors.As(err, &pe) {
			s.limits.Wrong(p.Phone, s.now())
			f.Errors.Add("code", msgCodeWrong)
			return show(http.StatusUnprocessableEntity, 0)
		}
		f.Errors.Add("", msgRequestFailed)
		return show(http.StatusServiceUnavailable, 0)
	}
	s.limits.Verified(p.Phone)
	info, err := s.gw.ClientInfo(ctx, token)
	if err != nil {
		s.sessions.clearPending(c.Response())
		var pe *gateway.ProviderError
		msg := msgRequestFailed
		if errors.As(err, &pe) && pe.Message != "" {
			msg = pe.Message // hasErrors: the customer sees responseDescription and is signed out
		}
		return s.signedOutWith(c, msg)
	}
	if err := s.sessions.Start(c.Response(), token, info.GUID, firstName(info.FIO), p.Phone); err != nil {
		return err
	}
	s.sessions.clearPending(c.Response())
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, jsonAnswer{OK: true, Redirect: views.PathHome})
	}
	return seeOther(c, views.PathHome)
}

// codeResend asks for a new code for the sign-in in progress.
func (s *Server) codeResend(c *echo.Context) error {
	p, ok := s.sessions.readPending(c.Request())
	if !ok {
		return s.lostPending(c)
	}
	var errs views.Errors
	status, retry := s.sendCode(c, p.Phone, true, &errs)
	if status != http.StatusOK {
		if wantsJSON(c) {
			return s.jsonRefusal(c, status, errs, retry)
		}
		return s.renderCode(c, status, p, views.CodeForm{Errors: errs})
	}
	p.SentAt = s.now()
	if err := s.sessions.writePending(c.Response(), p); err != nil {
		return err
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, jsonAnswer{OK: true, ResendIn: int(s.limits.Interval() / time.Second)})
	}
	return seeOther(c, views.PathLoginCode+"?sent=1")
}

// lostPending answers a code step whose sign-in expired or never began.
func (s *Server) lostPending(c *echo.Context) error {
	if wantsJSON(c) {
		return c.JSON(http.StatusBadRequest, jsonAnswer{Title: msgOops, Message: msgNoPending, Redirect: views.PathLogin})
	}
	return s.signedOutWith(c, msgNoPending)
}

// signedOutWith shows the login page with a message, signed out.
func (s *Server) signedOutWith(c *echo.Context, msg string) error {
	if wantsJSON(c) {
		return c.JSON(http.StatusUnauthorized, jsonAnswer{Title: msgOops, Message: msg})
	}
	f := views.LoginForm{Title: msgOops, Props: s.smsProps("login")}
	f.Errors.Add("", msg)
	p := s.loginPage(c)
	p.Invalid = true
	return render(c, http.StatusUnauthorized, views.LoginPage(p, f))
}

// jsonRefusal is a refused step for an island.
func (s *Server) jsonRefusal(c *echo.Context, status int, errs views.Errors, retry time.Duration) error {
	a := jsonAnswer{Title: msgOops}
	for _, e := range errs {
		if a.Message == "" {
			a.Message = e.Message
		}
		if e.Field != "" {
			if a.Fields == nil {
				a.Fields = map[string]string{}
			}
			a.Fields[e.Field] = e.Message
		}
	}
	if retry > 0 {
		a.RetryAfter = int((retry + time.Second - 1) / time.Second)
	}
	return c.JSON(status, a)
}

// refused counts and logs a limit's refusal, and sets Retry-After.
func (s *Server) refused(c *echo.Context, step, phone string, r *Refusal) {
	s.metrics.refusals.WithLabelValues(r.Limit).Inc()
	s.log.Warn("sign-in refused by limit", "step", step, "phone", gateway.MaskPhone(phone), "limit", r.Limit, "ip", c.RealIP())
	if r.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int((r.RetryAfter+time.Second-1)/time.Second)))
	}
}

// attempt counts and logs a sign-in step: masked phone and outcome, never a code or token.
func (s *Server) attempt(step, phone string, err error) {
	outcome := "ok"
	var pe *gateway.ProviderError
	switch {
	case err == nil:
	case errors.As(err, &pe):
		outcome = "refused"
	default:
		outcome = "unavailable"
	}
	s.metrics.signins.WithLabelValues(step, outcome).Inc()
	s.log.Info("sign-in attempt", "step", step, "phone", gateway.MaskPhone(phone), "outcome", outcome)
}

// firstName takes the first name from the provider's fio, "Фамилия Имя Отчество".
func firstName(fio string) string {
	parts := strings.Fields(fio)
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	default:
		return parts[1]
	}
}
