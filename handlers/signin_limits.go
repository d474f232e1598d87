package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// What a 4-digit code cannot give by itself. Strangers and the owner's known
// browsers count apart: a stranger spends at most 7 of a day's 10 entries.
const (
	CodeInterval   = 60 * time.Second // by default, a new code per phone at most this often
	codesPerWindow = 5                // codes per phone …
	codesWindow    = 2 * time.Hour    // … in this window
	wrongStranger  = 7                // wrong entries per phone from strangers …
	wrongKnown     = 3                // … and from the owner's known browsers …
	wrongWindow    = 24 * time.Hour   // … in this window
	wrongPerCode   = 3                // wrong entries before a code is spent
	codeWindow     = time.Hour        // longer than a code lives; a new code clears the count
	requestsPerIP  = 30               // code requests per client IP, and per IPv6 /64 and /48 …
	ipWindow       = time.Hour        // … in this window
	codesPerPrefix = 20               // codes to numbers that differ only in their last four digits …
	prefixWindow   = time.Hour        // … in this window
	confirmedFor   = 2 * time.Minute
)

func browserMark(known bool) string {
	if known {
		return "k"
	}
	return "s"
}

// The limits of a phone are kept under its tag, never the number itself.
func (s *Server) phoneKey(name, phone string, known bool) string {
	return name + ":" + browserMark(known) + ":" + s.phoneTag(phone)
}

func (s *Server) intervalRule(phone string, known bool) store.Rule {
	return store.Rule{Name: "phone_interval", Key: s.phoneKey("next", phone, known), Max: 1, Window: s.codes.interval}
}

// A code the owner asked for makes strangers wait too, as the provider keeps one
// code per phone; a stranger's request never makes the owner wait.

func (s *Server) newCodeWait(ctx context.Context, phone string, known bool) (time.Duration, error) {
	wait, err := s.codes.limits.Wait(ctx, s.now(), s.intervalRule(phone, known))
	if err != nil || known {
		return wait, err
	}
	owner, err := s.codes.limits.Wait(ctx, s.now(), s.intervalRule(phone, true))
	return max(wait, owner), err
}

// senderRule marks which class asked for the current code; it is checked
// with Wait, never taken against a customer.
func (s *Server) senderRule(phone string, known bool) store.Rule {
	return store.Rule{Name: "code_sender", Key: s.phoneKey("sent", phone, known), Max: 1, Window: codeWindow}
}

// An owner's entry of a stranger's code counts against strangers, never
// against the owner's browsers, which may have been sent the code it replaced.
func (s *Server) strangersCode(ctx context.Context, phone string) bool {
	wait, err := s.codes.limits.Wait(ctx, s.now(), s.senderRule(phone, false))
	return err == nil && wait > 0
}

// codeRules are the limits of one code sent, in order: the phone's, the
// sender's, the service's. sender stays counted when the provider refuses the phone.
func (s *Server) codeRules(phone, ip string, known bool, c codeClass) (rules []store.Rule, sender []string) {
	rules = []store.Rule{
		s.intervalRule(phone, known),
		{Name: "phone_window", Key: s.phoneKey("codes", phone, known), Max: codesPerWindow, Window: codesWindow},
	}
	// Addresses and numbers' prefixes are kept under their tags too.
	for _, a := range limitAddresses(ip) {
		key := "ip:" + s.sessions.Tag("ip "+a)
		rules = append(rules, store.Rule{Name: "ip_window", Key: key, Max: requestsPerIP, Window: ipWindow})
		sender = append(sender, key)
	}
	prefix := "prefix:" + s.sessions.Tag("prefix "+phone[:max(len(phone)-4, 0)])
	rules = append(rules, store.Rule{Name: "prefix_window", Key: prefix, Max: codesPerPrefix, Window: prefixWindow})
	sender = append(sender, prefix)
	return append(rules, s.codes.budget.rules(c)...), sender
}

// An IPv6 client counts by its /64 and its /48, so that changing addresses
// within a site is no new allowance; an IPv4 client by its address.
func limitAddresses(ip string) []string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return []string{ip}
	}
	a = a.WithZone("").Unmap()
	if a.Is4() {
		return []string{a.String()}
	}
	p64, _ := a.Prefix(64)
	p48, _ := a.Prefix(48)
	return []string{p64.String(), p48.String()}
}

func (s *Server) entryRules(phone string, known bool) []store.Rule {
	day := wrongStranger
	if known {
		day = wrongKnown
	}
	return []store.Rule{
		{Name: "phone_wrong", Key: s.phoneKey("wrong", phone, known), Max: day, Window: wrongWindow},
		{Name: "code_attempts", Key: s.perCodeKey(phone, known), Max: wrongPerCode, Window: codeWindow},
	}
}

func (s *Server) perCodeKey(phone string, known bool) string { return s.phoneKey("code", phone, known) }

func refusalMessage(r *store.Refusal) string {
	switch r.Limit {
	case "phone_interval":
		return "Новый код можно запросить " + after(r.RetryAfter) + "."
	case "phone_window":
		return "Слишком много запросов кода для этого номера. Попробуйте " + after(r.RetryAfter) + "."
	case "ip_window":
		return "Слишком много запросов кода. Попробуйте " + after(r.RetryAfter) + "."
	case "prefix_window":
		return msgCodesBusy
	case "code_attempts":
		return fmt.Sprintf("Код введён неверно %d раза. Запросите новый код.", wrongPerCode)
	}
	if isBudget(r.Limit) {
		return msgCodesBusy
	}
	return "Слишком много неверных попыток. Попробуйте " + after(r.RetryAfter) + "." // phone_wrong
}

func isBudget(limit string) bool { return strings.HasPrefix(limit, "sms_") }

func (s *Server) take(ctx context.Context, rules []store.Rule) (store.Hold, *store.Refusal, error) {
	h, err := s.codes.limits.Take(ctx, s.now(), rules...)
	var r *store.Refusal
	if errors.As(err, &r) {
		if r.Limit == "code_attempts" {
			r.RetryAfter = 0 // only a new code helps
		}
		r.Message = refusalMessage(r)
		return store.Hold{}, r, nil
	}
	return h, nil, err
}

// budgetUsed reports how full the SMS budgets are; at 80 % it logs once, so the
// resort hears of a flood before sign-ins stop.
func (s *Server) budgetUsed(step string, c codeClass, h store.Hold) {
	for _, rule := range s.codes.budget.rules(c) {
		i := slices.Index(h.Keys, rule.Key)
		if i < 0 || i >= len(h.Counts) {
			continue
		}
		n := h.Counts[i]
		s.codes.gauge.setAbove(rule.Name, s.now(), n, func() {
			s.metrics.budget.WithLabelValues(rule.Name).Set(float64(n) / float64(rule.Max))
		})
		if n == int(math.Ceil(budgetWarnShare*float64(rule.Max))) {
			s.log.Warn("SMS code budget 80 % used", "budget", rule.Name, "used", n, "max", rule.Max, "step", step, "class", string(c))
		}
	}
}

func (s *Server) release(ctx context.Context, h store.Hold) {
	if len(h.Keys) == 0 {
		return
	}
	if err := s.codes.limits.Release(context.WithoutCancel(ctx), h); err != nil {
		s.log.ErrorContext(ctx, "sign-in limit not released", "err", err)
	}
}

// confirmOnce makes parallel submissions of one code one provider call; only a
// sign-in, a used or a wrong code is kept. The token in it is shared sealed.
func (s *Server) confirmOnce(ctx context.Context, key string, work func() confirmResult) confirmResult {
	sum := sha256.Sum256([]byte(key)) // the key holds the code: not in the store
	k := "confirm:" + base64.RawURLEncoding.EncodeToString(sum[:])
	failed := func(err error) confirmResult {
		s.log.ErrorContext(ctx, "sign-in store unavailable", "step", "code_confirm", "err", err)
		res := confirmResult{status: http.StatusServiceUnavailable}
		res.errs.Add("", web.MsgRequestFailed)
		return res
	}
	var mine *confirmResult // the result of the work this caller ran
	run := func(context.Context) store.Outcome {
		res := work()
		mine = &res
		v, err := s.sessions.Seal(sharedConfirmName, res.shared())
		if err != nil {
			s.log.ErrorContext(ctx, "sign-in outcome not sealed", "err", err)
			return store.Outcome{Status: http.StatusServiceUnavailable}
		}
		return store.Outcome{Status: res.status, Message: v}
	}
	keep := func(out store.Outcome) time.Duration {
		if mine != nil && mine.keep() {
			return confirmedFor
		}
		return 0
	}
	wait, cancel := context.WithTimeout(ctx, waitFirst)
	defer cancel()
	out, err := store.Do(wait, s.stores.once, k, confirmedFor, keep, run)
	switch {
	case mine != nil:
		if err != nil {
			s.log.ErrorContext(ctx, "sign-in outcome not shared", "err", err)
		}
		return *mine
	case err != nil:
		return failed(err)
	}
	var sc sharedConfirm
	if !s.sessions.Open(sharedConfirmName, out.Message, &sc) {
		return failed(errors.New("a shared sign-in outcome does not open"))
	}
	return sc.result()
}

const sharedConfirmName = "lk-confirm"

type sharedConfirm struct {
	Sess    *web.Session  `json:"s,omitempty"`
	Token   string        `json:"t,omitempty"`
	SignOut string        `json:"o,omitempty"`
	Status  int           `json:"c,omitempty"`
	Errs    views.Errors  `json:"e,omitempty"`
	Retry   time.Duration `json:"r,omitempty"`
}

func (r confirmResult) shared() sharedConfirm {
	return sharedConfirm{Sess: r.sess, Token: r.token, SignOut: r.signOut, Status: r.status, Errs: r.errs, Retry: r.retry}
}

func (sc sharedConfirm) result() confirmResult {
	return confirmResult{sess: sc.Sess, token: sc.Token, signOut: sc.SignOut, status: sc.Status, errs: sc.Errs, retry: sc.Retry}
}

func after(d time.Duration) string {
	s := seconds(d)
	switch {
	case s < 60:
		return fmt.Sprintf("через %d с", max(s, 1))
	case s < 3600:
		return fmt.Sprintf("через %d мин", (s+59)/60)
	default:
		h, m := s/3600, (s%3600+59)/60
		if m == 60 {
			h, m = h+1, 0
		}
		if m == 0 {
			return fmt.Sprintf("через %d ч", h)
		}
		return fmt.Sprintf("через %d ч %d мин", h, m)
	}
}

type confirmResult struct {
	sess    *web.Session // signed in
	token   string       // the code was right, the profile did not load: kept for a retry
	signOut string       // the provider refused the client (hasErrors): its message
	status  int          // otherwise the answer's status …
	errs    views.Errors
	retry   time.Duration
}

// keep: what a second submission of the same code must get again; a failure
// or a refusal may be retried.
func (r confirmResult) keep() bool {
	return r.sess != nil || r.token != "" || r.status == http.StatusUnprocessableEntity
}
