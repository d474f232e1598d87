package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

func (s *Server) smsProps(mode string) views.SmsProps {
	p := views.SmsProps{
		Mode: mode, Form: "#" + mode + "-form", RequestURL: views.PathLogin,
		ConfirmURL: views.PathLoginCode, ResendURL: views.PathLoginResend, Home: views.PathHome,
	}
	if mode == "signup" {
		p.RequestURL = views.PathSignup
	}
	if s.shell.site.SandboxURL != "" {
		p.SandboxHint = "SMS не отправляются, код можно посмотреть по адресу " + s.shell.site.SandboxURL + "/sandbox/sms/{телефон}."
	}
	return p
}

func (s *Server) smsPage(c *echo.Context, title, description string) views.Page {
	p := s.page(c, title, description)
	p.Index = true
	p.Islands = []string{views.SmsIsland, views.PhoneEnhance}
	return p
}

func signedOut(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if web.SessionOf(c) != nil {
			return web.SeeOther(c, views.PathHome)
		}
		return next(c)
	}
}

func (s *Server) loginPage(c *echo.Context) views.Page {
	return s.smsPage(c, "Авторизация", "Вход в личный кабинет курорта: заказы горнолыжной школы, аквапарка, отеля, беседок и банкетных залов. Вход по номеру телефона и коду из SMS.")
}

func (s *Server) loginForm(c *echo.Context) error {
	return s.render(c, http.StatusOK, views.LoginPage(s.loginPage(c), views.LoginForm{Props: s.smsProps("login"), Notice: s.keptLogin(c)}))
}

func (s *Server) loginSubmit(c *echo.Context) error {
	f := views.LoginForm{Phone: strings.TrimSpace(c.FormValue("phone")), Title: web.MsgOops, Props: s.smsProps("login")}
	show := func(status int, retry time.Duration) error {
		return web.Respond(c, status, refusal(f.Errors, retry), func() error {
			p := s.loginPage(c)
			p.Invalid = true
			return s.render(c, status, views.LoginPage(p, f))
		})
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

// The limits are taken before the provider is called; a code that was not
// sent gives them back, so a failed request starts no wait.
func (s *Server) sendCode(c *echo.Context, phone string, resend bool, errs *views.Errors) (int, time.Duration) {
	step := "code_request"
	if resend {
		step = "code_resend"
	}
	return s.withCodeLimits(c, step, phone, errs, func(ctx context.Context) error {
		return s.account.Login(ctx, phone, resend)
	}, func(err error) (int, string, string) {
		if own := providerText(err); refusedByProvider(err) && own != "" {
			return http.StatusUnprocessableEntity, "phone", own
		}
		return http.StatusServiceUnavailable, "", web.MsgRequestFailed
	})
}

// A code sent keeps the limits and starts a fresh count of entries (the
// provider keeps one code per phone); a failure gives them back; a refusal
// keeps the address's, so that asking about many phones still counts.
func (s *Server) withCodeLimits(c *echo.Context, step, phone string, errs *views.Errors,
	send func(context.Context) error, failed func(error) (status int, field, msg string)) (int, time.Duration) {
	ctx := c.Request().Context()
	known := s.knownDevice(c.Request(), phone)
	class, err := s.codeClass(ctx, step, phone, known)
	if err != nil {
		s.log.ErrorContext(ctx, "sign-in limits unavailable", "step", step, "err", err)
		errs.Add("", web.MsgRequestFailed)
		return http.StatusServiceUnavailable, 0
	}
	rules, sender := s.rulesFor(phone, c.RealIP(), known, class)
	if !known { // a code the owner just asked for is not replaced at once
		wait, err := s.codes.limits.Wait(ctx, s.now(), s.intervalRule(phone, true))
		if err == nil && wait > 0 {
			r := &store.Refusal{Limit: "phone_interval", RetryAfter: wait}
			r.Message = refusalMessage(r)
			s.countRefusal(c, step, phone, r)
			errs.Add("", r.Message)
			return http.StatusTooManyRequests, r.RetryAfter
		}
	}
	hold, r, err := s.take(ctx, rules)
	if r != nil {
		if isBudget(r.Limit) {
			s.metrics.spent.WithLabelValues(string(class), r.Limit).Inc()
			r.Class = string(class)
		}
		s.countRefusal(c, step, phone, r)
		errs.Add("", r.Message)
		return http.StatusTooManyRequests, r.RetryAfter
	}
	if err != nil {
		s.log.ErrorContext(c.Request().Context(), "sign-in limits unavailable", "step", step, "err", err)
		errs.Add("", web.MsgRequestFailed)
		return http.StatusServiceUnavailable, 0
	}
	s.budgetUsed(step, class, hold)
	err = send(ctx)
	s.countStep(c.Request().Context(), step, phone, err)
	if err != nil {
		if refusedByProvider(err) {
			s.release(ctx, hold.Except(sender...))
		} else {
			s.release(ctx, hold)
		}
		status, field, msg := failed(err)
		errs.Add(field, msg)
		return status, 0
	}
	s.newCode(context.WithoutCancel(ctx), phone, known)
	return http.StatusOK, 0
}

// codeClass is whose share of the SMS budget a code comes from: a number is
// a customer's only once a code sent to it was entered, whoever asks for it.
func (s *Server) codeClass(ctx context.Context, step, phone string, known bool) (codeClass, error) {
	switch {
	case step == "signup":
		return classSignup, nil
	case known:
		return classKnown, nil
	}
	confirmed, err := s.stores.numbers.Confirmed(ctx, s.phoneTag(phone))
	if err != nil || !confirmed {
		return classNewNumber, err
	}
	return classUnknown, nil
}

func (s *Server) newCode(ctx context.Context, phone string, known bool) {
	err := s.codes.limits.Clear(ctx, s.perCodeKey(phone, true), s.perCodeKey(phone, false),
		s.senderRule(phone, true).Key, s.senderRule(phone, false).Key)
	if err == nil {
		_, err = s.codes.limits.Take(ctx, s.now(), s.senderRule(phone, known))
	}
	if err != nil {
		s.log.ErrorContext(ctx, "new code not recorded", "err", err)
	}
}

func (s *Server) codeSent(c *echo.Context, p pending) error {
	p.ID = web.RandomID()
	if err := s.writePending(c.Response(), p); err != nil {
		return err
	}
	return respondOK(c, web.Answer{Phone: views.MaskedPhone(p.Phone), ResendIn: int(s.codes.interval / time.Second)}, views.PathLoginCode)
}

func (s *Server) codePage(c *echo.Context, p pending, f views.CodeForm) views.CodeForm {
	f.Masked = views.MaskedPhone(p.Phone)
	f.Mode = p.Mode
	f.Confirmed = p.Token != ""
	known := s.knownDevice(c.Request(), p.Phone)
	if wait, err := s.newCodeWait(c.Request().Context(), p.Phone, known); err == nil && wait > 0 {
		f.ResendAfter = seconds(wait)
	}
	if s.shell.site.SandboxURL != "" {
		f.SandboxURL = s.shell.site.SandboxURL + "/sandbox/sms/" + p.Phone
	}
	return f
}

func (s *Server) renderCode(c *echo.Context, status int, p pending, f views.CodeForm) error {
	pg := s.page(c, "Код из SMS", "Введите код из SMS, чтобы войти в личный кабинет.")
	pg.Invalid = len(f.Errors) > 0
	return s.render(c, status, views.CodePage(pg, s.codePage(c, p, f)))
}

func (s *Server) codeForm(c *echo.Context) error {
	p, ok := s.readPending(c.Request())
	if !ok {
		return web.SeeOther(c, views.PathLogin)
	}
	f := views.CodeForm{}
	if c.QueryParam("sent") == "1" {
		f.Notice = msgCodeSent
	}
	return s.renderCode(c, http.StatusOK, p, f)
}

func (s *Server) codeSubmit(c *echo.Context) error {
	p, ok := s.readPending(c.Request())
	if sess := web.SessionOf(c); sess != nil && (!ok || sess.Phone == p.Phone) {
		return s.signedIn(c)
	}
	if !ok {
		return s.lostPending(c)
	}
	f := views.CodeForm{Code: c.FormValue("code")}
	key := p.ID + ":t"
	if p.Token == "" {
		code, ok := parseCode(f.Code)
		if !ok {
			f.Errors.Add("code", msgCodeInvalid)
			return web.Respond(c, http.StatusUnprocessableEntity, refusal(f.Errors, 0), func() error {
				return s.renderCode(c, http.StatusUnprocessableEntity, p, f)
			})
		}
		f.Code = code
		key = p.ID + ":" + code
	}
	known := s.knownDevice(c.Request(), p.Phone)
	// The work goes on when this browser gives up (a double click cancels the
	// first request): the other submissions share its outcome.
	ctx := context.WithoutCancel(c.Request().Context())
	work := func() confirmResult { return s.confirm(ctx, c, p, f.Code, known) }
	if p.ID == "" { // a sign-in begun before submissions were shared: its key would not be its own
		return s.answerConfirm(c, p, f, work())
	}
	return s.answerConfirm(c, p, f, s.confirmOnce(c.Request().Context(), key, work))
}

func (s *Server) confirm(ctx context.Context, c *echo.Context, p pending, code string, known bool) confirmResult {
	token := p.Token
	if token == "" {
		replaced := known && s.strangersCode(ctx, p.Phone)
		hold, r, err := s.take(ctx, s.entryRules(p.Phone, known && !replaced))
		if r != nil {
			if r.RetryAfter == 0 || replaced { // a new code helps: when it may be asked for
				wait, _ := s.newCodeWait(ctx, p.Phone, known)
				r.RetryAfter = max(wait, time.Second)
			}
			if replaced { // the strangers' limit, not the owner's: a code of his own helps
				r.Message = msgCodeAskAgain
			}
			s.countRefusal(c, "code_confirm", p.Phone, r)
			res := confirmResult{status: http.StatusTooManyRequests, retry: r.RetryAfter}
			res.errs.Add("code", r.Message)
			return res
		}
		if err != nil {
			s.log.ErrorContext(ctx, "sign-in limits unavailable", "step", "code_confirm", "err", err)
			res := confirmResult{status: http.StatusServiceUnavailable}
			res.errs.Add("", web.MsgRequestFailed)
			return res
		}
		token, err = s.account.LoginConfirm(ctx, p.Phone, code)
		s.countStep(ctx, "code_confirm", p.Phone, err)
		if err != nil {
			if refusedByProvider(err) {
				res := confirmResult{status: http.StatusUnprocessableEntity}
				if replaced {
					res.errs.Add("code", msgCodeReplaced)
				} else {
					res.errs.Add("code", msgCodeWrong)
				}
				return res
			}
			s.release(ctx, hold) // a failure is no wrong entry
			res := confirmResult{status: http.StatusServiceUnavailable}
			res.errs.Add("", web.MsgRequestFailed)
			return res
		}
		s.release(ctx, hold) // the right code is no wrong entry
		if err := s.stores.numbers.Confirm(ctx, s.phoneTag(p.Phone), s.now().Add(confirmedNumberFor)); err != nil {
			s.log.ErrorContext(ctx, "confirmed number not kept", "err", err)
		}
		if err := s.codes.limits.Clear(ctx, s.perCodeKey(p.Phone, true), s.perCodeKey(p.Phone, false),
			s.senderRule(p.Phone, true).Key, s.senderRule(p.Phone, false).Key); err != nil {
			s.log.ErrorContext(ctx, "per-code count not cleared", "err", err)
		}
	}
	info, err := s.account.ClientInfo(ctx, token)
	if err != nil {
		if msg, out := profileRefused(err); out {
			return confirmResult{signOut: msg}
		}
		// The code is used up: the token is kept, so that trying again needs no code.
		s.log.WarnContext(ctx, "profile not loaded at sign-in", "phone", gateway.MaskPhone(p.Phone), "err", err)
		res := confirmResult{token: token, status: http.StatusServiceUnavailable}
		res.errs.Add("", msgProfileRetry)
		return res
	}
	sess := s.sessions.New(token, info.GUID, firstName(info.FIO), p.Phone)
	s.heard(sess, info)
	return confirmResult{sess: sess}
}

func (s *Server) answerConfirm(c *echo.Context, p pending, f views.CodeForm, res confirmResult) error {
	w := c.Response()
	switch {
	case res.sess != nil:
		if err := s.sessions.Write(w, res.sess); err != nil {
			return err
		}
		if err := s.rememberDevice(w, c.Request(), p.Phone); err != nil {
			return err
		}
		s.clearPending(w)
		to := s.keptReturn(c, res.sess)
		return respondOK(c, web.Answer{Redirect: to}, to)
	case res.signOut != "":
		s.clearPending(w)
		return s.signedOutWith(c, res.signOut)
	case res.token != "":
		p.Token = res.token
		if err := s.writePending(w, p); err != nil {
			return err
		}
	}
	f.Errors = res.errs
	return web.Respond(c, res.status, refusal(f.Errors, res.retry), func() error {
		if res.retry > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(seconds(res.retry)))
		}
		return s.renderCode(c, res.status, p, f)
	})
}

func (s *Server) signedIn(c *echo.Context) error {
	return respondOK(c, web.Answer{Redirect: views.PathHome}, views.PathHome)
}

func (s *Server) codeResend(c *echo.Context) error {
	p, ok := s.readPending(c.Request())
	if !ok {
		return s.lostPending(c)
	}
	var errs views.Errors
	status, retry := s.sendCode(c, p.Phone, true, &errs)
	if status != http.StatusOK {
		return web.Respond(c, status, refusal(errs, retry), func() error {
			return s.renderCode(c, status, p, views.CodeForm{Errors: errs})
		})
	}
	p.ID, p.SentAt, p.Token = web.RandomID(), s.now(), "" // a new code, a new sign-in of this browser
	if err := s.writePending(c.Response(), p); err != nil {
		return err
	}
	return respondOK(c, web.Answer{ResendIn: int(s.codes.interval / time.Second)}, views.PathLoginCode+"?sent=1")
}

func (s *Server) lostPending(c *echo.Context) error {
	return web.Respond(c, http.StatusBadRequest, web.Answer{Message: msgNoPending, Redirect: views.PathLogin}, func() error {
		return s.signedOutWith(c, msgNoPending)
	})
}

func (s *Server) signedOutWith(c *echo.Context, msg string) error {
	return web.Respond(c, http.StatusUnauthorized, web.Answer{Message: msg}, func() error {
		f := views.LoginForm{Title: web.MsgOops, Props: s.smsProps("login")}
		f.Errors.Add("", msg)
		p := s.loginPage(c)
		p.Invalid = true
		return s.render(c, http.StatusUnauthorized, views.LoginPage(p, f))
	})
}

func refusal(errs views.Errors, retry time.Duration) web.Answer {
	a := web.Answer{Title: web.MsgOops}
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
		a.RetryAfter = seconds(retry)
	}
	return a
}

// Every 429 says when to come back, a second at least. Every refusal is
// counted; the log warns once per limit (and class) per refusalWarnEvery,
// saying how many it refused unwarned since, so that a pump's thousands of
// requests are a few lines. The others are at debug.
func (s *Server) countRefusal(c *echo.Context, step, phone string, r *store.Refusal) {
	s.metrics.refusals.WithLabelValues(r.Limit).Inc()
	msg, attrs := "sign-in refused by limit", []any{"step", step, "phone", gateway.MaskPhone(phone), "limit", r.Limit, "ip", c.RealIP()}
	if r.Class != "" {
		msg, attrs = "SMS code budget spent: code refused", append([]any{"class", r.Class, "budget", r.Limit}, attrs...)
	}
	if warn, before := s.codes.warned.note(r.Limit+" "+r.Class, s.now()); warn {
		s.log.WarnContext(c.Request().Context(), msg, append(attrs, "refused_unwarned_before", before)...)
	} else {
		s.log.DebugContext(c.Request().Context(), msg, attrs...)
	}
	r.RetryAfter = max(r.RetryAfter, time.Second)
	c.Response().Header().Set("Retry-After", strconv.Itoa(seconds(r.RetryAfter)))
}

// Never a code or token in the log; the phone masked.
func (s *Server) countStep(ctx context.Context, step, phone string, err error) {
	outcome := "ok"
	switch {
	case err == nil:
	case providerAnswered(err):
		outcome = "refused"
	default:
		outcome = "unavailable"
	}
	s.metrics.signins.WithLabelValues(step, outcome).Inc()
	s.log.InfoContext(ctx, "sign-in attempt", "step", step, "phone", gateway.MaskPhone(phone), "outcome", outcome)
}
