package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"lk/store"
	"lk/views"
)

// The limits that a 4-digit code (10 000 values, about 13 bits) cannot give
// by itself.
//
// Every limit on entries is counted apart for strangers (a browser that has
// never signed in as the phone) and for the owner's known browsers (one that
// holds a device cookie naming the phone, set at each sign-in). A stranger
// may spend at most 7 wrong entries a day on a phone and cannot touch the 3
// kept for known browsers, so a day's guesses stay at most 10 and a stranger
// cannot lock the owner out of a browser the owner has signed in from.
const (
	CodeInterval   = 60 * time.Second // by default, a new code per phone at most this often
	codesPerWindow = 5                // codes per phone …
	codesWindow    = 2 * time.Hour    // … in this window
	wrongStranger  = 7                // wrong entries per phone from strangers …
	wrongKnown     = 3                // … and from the owner's known browsers …
	wrongWindow    = 24 * time.Hour   // … in this window
	wrongPerCode   = 3                // wrong entries before a code is spent
	codeWindow     = time.Hour        // longer than a code lives; a new code clears the count
	requestsPerIP  = 30               // code requests per client IP …
	ipWindow       = time.Hour        // … in this window
	// confirmedFor is how long a second submission of the same code from the
	// same browser gets the first one's outcome (double clicks, a retry
	// after a dropped answer).
	confirmedFor = 2 * time.Minute
)

// class is "k" for a browser that signed in as the phone before, "s" for a
// stranger.
func class(known bool) string {
	if known {
		return "k"
	}
	return "s"
}

func (s *Server) intervalRule(phone string, known bool) store.Rule {
	return store.Rule{Name: "phone_interval", Key: "next:" + class(known) + ":" + phone, Max: 1, Window: s.interval}
}

// The wait between codes is shared one way. A code the owner's known
// browser asked for makes strangers wait too, so that a stranger cannot
// replace it at once (the provider keeps one code per phone, and the
// owner's entry of a replaced code would be wrong); a stranger's request
// never makes the owner wait, so a stranger cannot keep the owner from a
// code either.

// newCodeWait is how long this browser waits before it may ask for a new
// code for phone: its class's wait and, for a stranger, the owner's.
func (s *Server) newCodeWait(ctx context.Context, phone string, known bool) (time.Duration, error) {
	wait, err := s.limits.Wait(ctx, s.now(), s.intervalRule(phone, known))
	if err != nil || known {
		return wait, err
	}
	owner, err := s.limits.Wait(ctx, s.now(), s.intervalRule(phone, true))
	return max(wait, owner), err
}

// senderRule marks which class asked for the phone's current code: the
// mark of the class that asked last is the only one left (codeSent clears
// both). It is checked with Wait (a mark present means a wait), never
// taken against a customer.
func senderRule(phone string, known bool) store.Rule {
	return store.Rule{Name: "code_sender", Key: "sent:" + class(known) + ":" + phone, Max: 1, Window: codeWindow}
}

// strangersCode tells whether the phone's current code was asked for by a
// stranger. An entry from the owner's known browser is then an entry of
// the stranger's code: it counts against strangers (so a day's guesses
// stay bounded however the two classes take turns), never against the
// owner's browsers, which may have been sent the code it replaced.
func (s *Server) strangersCode(ctx context.Context, phone string) bool {
	wait, err := s.limits.Wait(ctx, s.now(), senderRule(phone, false))
	return err == nil && wait > 0
}

// codeRules are taken before auth/login2f; the per-IP rule is the last.
func (s *Server) codeRules(phone, ip string, known bool) []store.Rule {
	return []store.Rule{
		s.intervalRule(phone, known),
		{Name: "phone_window", Key: "codes:" + class(known) + ":" + phone, Max: codesPerWindow, Window: codesWindow},
		{Name: "ip_window", Key: "ip:" + ip, Max: requestsPerIP, Window: ipWindow},
	}
}

// limitAddress is what the per-IP limit counts for the client address ip:
// an IPv4 address, or the /64 of an IPv6 one, which is one customer's
// network (a provider hands out at least a /64, and every address in it is
// the customer's to use), so that changing addresses inside it is no new
// allowance.
func limitAddress(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.WithZone("").Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// entryRules are taken before auth/loginConfirm.
func entryRules(phone string, known bool) []store.Rule {
	day := wrongStranger
	if known {
		day = wrongKnown
	}
	return []store.Rule{
		{Name: "phone_wrong", Key: "wrong:" + class(known) + ":" + phone, Max: day, Window: wrongWindow},
		{Name: "code_attempts", Key: perCodeKey(phone, known), Max: wrongPerCode, Window: codeWindow},
	}
}

func perCodeKey(phone string, known bool) string { return "code:" + class(known) + ":" + phone }

func refusalMessage(r *store.Refusal) string {
	switch r.Limit {
	case "phone_interval":
		return "Новый код можно запросить " + after(r.RetryAfter) + "."
	case "phone_window":
		return "Слишком много запросов кода для этого номера. Попробуйте " + after(r.RetryAfter) + "."
	case "ip_window":
		return "Слишком много запросов кода. Попробуйте " + after(r.RetryAfter) + "."
	case "code_attempts":
		return fmt.Sprintf("Код введён неверно %d раза. Запросите новый код.", wrongPerCode)
	default: // phone_wrong
		return "Слишком много неверных попыток. Попробуйте " + after(r.RetryAfter) + "."
	}
}

// take takes rules; a refusal comes back with its message, a store failure
// as it is.
func (s *Server) take(ctx context.Context, rules []store.Rule) (store.Hold, *store.Refusal, error) {
	h, err := s.limits.Take(ctx, s.now(), rules...)
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

// release gives a hold back; a failing store is logged, the customer's
// answer does not depend on it.
func (s *Server) release(ctx context.Context, h store.Hold) {
	if len(h.Keys) == 0 {
		return
	}
	if err := s.limits.Release(context.WithoutCancel(ctx), h); err != nil {
		s.log.Error("sign-in limit not released", "err", err)
	}
}

// confirmOnce runs work once per code and browser among every instance that
// shares the Once store: parallel submissions of one code (a double click,
// even split between two instances) are one provider call, and each gets
// its outcome. A sign-in, a used code and a wrong code are kept for
// confirmedFor, so that a second submission shortly after gets them too;
// anything else (a failure, a limit) is handed to those waiting and then
// forgotten, so that a retry runs again. The outcome holds the provider's
// token, so it is shared sealed with the cookie keys.
func (s *Server) confirmOnce(ctx context.Context, key string, work func() confirmResult) confirmResult {
	sum := sha256.Sum256([]byte(key)) // the key holds the code: not in the store
	k := "confirm:" + base64.RawURLEncoding.EncodeToString(sum[:])
	failed := func(err error) confirmResult {
		s.log.Error("sign-in store unavailable", "step", "code_confirm", "err", err)
		res := confirmResult{status: http.StatusServiceUnavailable}
		res.errs.Add("", msgRequestFailed)
		return res
	}
	var mine *confirmResult // the result of the work this caller ran
	run := func(context.Context) store.Outcome {
		res := work()
		mine = &res
		v, err := s.sessions.seal(sharedConfirmName, res.shared())
		if err != nil {
			s.log.Error("sign-in outcome not sealed", "err", err)
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
	out, err := store.Do(wait, s.once, k, confirmedFor, keep, run)
	switch {
	case mine != nil:
		if err != nil {
			s.log.Error("sign-in outcome not shared", "err", err)
		}
		return *mine
	case err != nil:
		return failed(err)
	}
	var sc sharedConfirm
	if !s.sessions.open(sharedConfirmName, out.Message, &sc) {
		return failed(errors.New("a shared sign-in outcome does not open"))
	}
	return sc.result()
}

// sharedConfirmName names the sealed outcome (securecookie binds it).
const sharedConfirmName = "lk-confirm"

// sharedConfirm is what instances share of a kept confirmResult.
type sharedConfirm struct {
	Sess    *Session      `json:"s,omitempty"`
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

// after says in Russian when something becomes possible: "через 42 с".
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
