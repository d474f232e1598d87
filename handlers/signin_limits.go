package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"lk/views"
)

// The limits that a 4-digit code (10 000 values, about 13 bits) cannot give
// by itself (DESIGN.md "Sessions and sign-in"; the reasoning is in the note
// of issue 11).
//
// Every limit on entries is counted apart for strangers (a browser that has
// never signed in as the phone) and for the owner's known browsers (one that
// holds a device cookie naming the phone, set at each sign-in). A stranger
// may spend at most 7 wrong entries a day on a phone and cannot touch the 3
// kept for known browsers, so a day's guesses stay at most 10 and a stranger
// cannot lock the owner out of a browser the owner has signed in from.
const (
	CodeInterval   = 60 * time.Second // by default, a new code per phone at most this often (SPEC §9)
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

func (s *Server) intervalRule(phone string, known bool) Rule {
	return Rule{"phone_interval", "next:" + class(known) + ":" + phone, 1, s.interval}
}

// codeRules are taken before auth/login2f; the per-IP rule is the last.
func (s *Server) codeRules(phone, ip string, known bool) []Rule {
	return []Rule{
		s.intervalRule(phone, known),
		{"phone_window", "codes:" + class(known) + ":" + phone, codesPerWindow, codesWindow},
		{"ip_window", "ip:" + ip, requestsPerIP, ipWindow},
	}
}

// entryRules are taken before auth/loginConfirm.
func entryRules(phone string, known bool) []Rule {
	day := wrongStranger
	if known {
		day = wrongKnown
	}
	return []Rule{
		{"phone_wrong", "wrong:" + class(known) + ":" + phone, day, wrongWindow},
		{"code_attempts", perCodeKey(phone, known), wrongPerCode, codeWindow},
	}
}

func perCodeKey(phone string, known bool) string { return "code:" + class(known) + ":" + phone }

// refusalMessage is what the customer reads about a refusal.
func refusalMessage(r *Refusal) string {
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
func (s *Server) take(ctx context.Context, rules []Rule) (Hold, *Refusal, error) {
	h, err := s.limits.Take(ctx, s.now(), rules...)
	var r *Refusal
	if errors.As(err, &r) {
		if r.Limit == "code_attempts" {
			r.RetryAfter = 0 // only a new code helps
		}
		r.Message = refusalMessage(r)
		return Hold{}, r, nil
	}
	return h, nil, err
}

// release gives a hold back; a failing store is logged, the customer's
// answer does not depend on it.
func (s *Server) release(ctx context.Context, h Hold) {
	if len(h.Keys) == 0 {
		return
	}
	if err := s.limits.Release(context.WithoutCancel(ctx), h); err != nil {
		s.log.Error("sign-in limit not released", "err", err)
	}
}

// flights makes parallel submissions of one code from one browser one
// provider call, and lets a second submission shortly after have the
// first one's outcome, so a double click neither counts as a wrong entry
// nor calls the provider with a code already used.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done    chan struct{}
	res     confirmResult
	expires time.Time // set when done; zero while in flight
}

// do runs work once per key: the first caller runs it, later callers wait
// for it (or their own ctx) and share its result. keep says whether a
// finished result is kept for confirmedFor.
func (f *flights) do(ctx context.Context, key string, now func() time.Time, work func() confirmResult, keep func(confirmResult) bool) (confirmResult, error) {
	f.mu.Lock()
	if f.m == nil {
		f.m = map[string]*flight{}
	}
	for k, fl := range f.m {
		if !fl.expires.IsZero() && now().After(fl.expires) {
			delete(f.m, k)
		}
	}
	fl, ok := f.m[key]
	if !ok {
		fl = &flight{done: make(chan struct{})}
		f.m[key] = fl
	}
	f.mu.Unlock()
	if ok {
		select {
		case <-fl.done:
			return fl.res, nil
		case <-ctx.Done():
			return confirmResult{}, ctx.Err()
		}
	}
	res := work()
	f.mu.Lock()
	fl.res = res
	if keep(res) {
		fl.expires = now().Add(confirmedFor)
	} else {
		delete(f.m, key)
	}
	f.mu.Unlock()
	close(fl.done)
	return res, nil
}

// confirmOnce runs work once for key across every instance that shares the
// Once store (one Redis): a double click the balancer splits between two
// instances is one provider call too, and each click gets its outcome. The
// flights above make the clicks on one instance one caller here. A kept
// outcome holds the provider's token, so it is stored sealed with the
// cookie keys (Redis sees what the browser's cookie holds, encrypted); an
// outcome not kept (a failure, a limit) is forgotten, so a retry runs again.
func (s *Server) confirmOnce(ctx context.Context, key string, work func() confirmResult) confirmResult {
	sum := sha256.Sum256([]byte(key)) // the key holds the code: not in the store
	k := "confirm:" + base64.RawURLEncoding.EncodeToString(sum[:])
	failed := func(err error) confirmResult {
		s.log.Error("sign-in store unavailable", "step", "code_confirm", "err", err)
		res := confirmResult{status: http.StatusServiceUnavailable}
		res.errs.Add("", msgRequestFailed)
		return res
	}
	deadline := time.Now().Add(waitFirst) // real time: the first caller's provider call
	for {
		first, out, err := s.once.Claim(ctx, k, confirmedFor)
		switch {
		case err != nil:
			return failed(err)
		case first:
			res := work()
			if !res.keep() {
				err = s.once.Forget(ctx, k)
			} else if v, serr := s.sessions.seal(sharedConfirmName, res.shared()); serr != nil {
				err = serr
			} else {
				err = s.once.Settle(ctx, k, Outcome{Status: res.status, Message: v}, confirmedFor)
			}
			if err != nil {
				s.log.Error("sign-in outcome not shared", "err", err)
			}
			return res
		case out != nil:
			var sc sharedConfirm
			if !s.sessions.open(sharedConfirmName, out.Message, &sc) {
				return failed(errors.New("a shared sign-in outcome does not open"))
			}
			return sc.result()
		}
		if time.Now().After(deadline) { // the first is still at the provider
			return failed(errors.New("the first submission of the code is still running"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sharedConfirmName names the sealed outcome (securecookie binds it).
const sharedConfirmName = "lk-confirm"

// sharedConfirm is what instances share of a kept confirmResult.
type sharedConfirm struct {
	Sess   *Session     `json:"s,omitempty"`
	Token  string       `json:"t,omitempty"`
	Status int          `json:"c,omitempty"`
	Errs   views.Errors `json:"e,omitempty"`
}

func (r confirmResult) shared() sharedConfirm {
	return sharedConfirm{Sess: r.sess, Token: r.token, Status: r.status, Errs: r.errs}
}

func (sc sharedConfirm) result() confirmResult {
	return confirmResult{sess: sc.Sess, token: sc.Token, status: sc.Status, errs: sc.Errs}
}
