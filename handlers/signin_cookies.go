package handlers

import (
	"fmt"
	"lk/handlers/web"
	"net/http"
	"slices"
	"time"
)

// pending is a code sent and not yet entered, in its own cookie.
type pending struct {
	ID     string    `json:"i"` // random: one sign-in of one browser, for double submissions
	Phone  string    `json:"p"`
	Mode   string    `json:"m"` // "login" or "signup"
	SentAt time.Time `json:"s"`
	// Token lets the retry skip the used-up code when the profile did not load.
	Token string `json:"t,omitempty"`
}

const pendingTTL = 15 * time.Minute

// device is the phones a browser signed in with, for a year.
type device struct {
	Phones []string `json:"p"`
}

const (
	deviceTTL    = 365 * 24 * time.Hour
	devicePhones = 5 // phones a browser remembers
)

func (s *Server) readPending(r *http.Request) (pending, bool) {
	var p pending
	name := s.sessions.CookieName("pending")
	c, err := r.Cookie(name)
	if err != nil || !s.sessions.Open(name, c.Value, &p) || p.Phone == "" || s.now().Sub(p.SentAt) > pendingTTL {
		return pending{}, false
	}
	return p, true
}

func (s *Server) writePending(w http.ResponseWriter, p pending) error {
	name := s.sessions.CookieName("pending")
	v, err := s.sessions.Seal(name, p)
	if err != nil {
		return fmt.Errorf("handlers: encode pending sign-in: %w", err)
	}
	http.SetCookie(w, s.sessions.Cookie(name, v, p.SentAt.Add(pendingTTL)))
	return nil
}

func (s *Server) clearPending(w http.ResponseWriter) {
	http.SetCookie(w, s.sessions.Cookie(s.sessions.CookieName("pending"), "", time.Unix(0, 0)))
}

func (s *Server) readDevice(r *http.Request) device {
	var d device
	name := s.sessions.CookieName("device")
	if c, err := r.Cookie(name); err == nil {
		s.sessions.OpenLong(name, c.Value, &d)
	}
	return d
}

func (s *Server) knownDevice(r *http.Request, phone string) bool {
	return slices.Contains(s.readDevice(r).Phones, phone)
}

func (s *Server) rememberDevice(w http.ResponseWriter, r *http.Request, phone string) error {
	d := s.readDevice(r)
	d.Phones = slices.DeleteFunc(d.Phones, func(p string) bool { return p == phone })
	d.Phones = append([]string{phone}, d.Phones[:min(len(d.Phones), devicePhones-1)]...)
	name := s.sessions.CookieName("device")
	v, err := s.sessions.Seal(name, d)
	if err != nil {
		return fmt.Errorf("handlers: encode device: %w", err)
	}
	http.SetCookie(w, s.sessions.Cookie(name, v, s.now().Add(deviceTTL)))
	return nil
}

// phoneTag stands for a phone in the store's key names (a keyed hash), so
// no key list or append-only file holds a phone number.
func (s *Server) phoneTag(phone string) string { return s.sessions.Tag(phone) }

// ownerTag is the session's customer as a kept form's token names them.
func (s *Server) ownerTag(sess *web.Session) string { return s.phoneTag(sess.Phone) }

// copiesCookie names the sign-in the offline copies belong to, for the
// worker to read (so not HttpOnly): without it they are not shown.
const copiesCookie = "__Host-lk_copies"

// markCopies sets copiesCookie to owner until the sign-in ends, unless r
// carries it already; an empty owner deletes one r carries.
func (s *Server) markCopies(w http.ResponseWriter, r *http.Request, owner string, until time.Time) {
	c, err := r.Cookie(copiesCookie)
	if err == nil && c.Value == owner || err != nil && owner == "" {
		return
	}
	if owner == "" {
		until = time.Unix(0, 0)
	}
	mark := s.sessions.Cookie(copiesCookie, owner, until)
	mark.HttpOnly, mark.Domain = false, ""
	http.SetCookie(w, mark)
}
