package handlers

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/securecookie"
)

// SessionTTL is how long a sign-in lasts (SPEC §9: the token cookie lasts 7 days).
const SessionTTL = 7 * 24 * time.Hour

// pendingTTL is how long the code step remembers which phone it is for.
const pendingTTL = 15 * time.Minute

// Session is what the session cookie holds: the provider's token and what
// pages need of the client, so that they need no extra call.
type Session struct {
	ID      string    `json:"i"` // random, for revocation
	Token   string    `json:"t"` // the provider's token; never logged
	GUID    string    `json:"g"` // the client's id at the provider
	Name    string    `json:"n"` // first name for the greeting
	Phone   string    `json:"p"` // digits, 79001234567
	Expires time.Time `json:"e"`
}

// pending is the sign-in in progress between the phone and the code.
type pending struct {
	Phone  string    `json:"p"`
	Mode   string    `json:"m"` // "login" or "signup"
	SentAt time.Time `json:"s"`
}

// Revoker remembers signed-out sessions until they would have expired, so a
// replayed cookie no longer opens the account. In memory for tests; the
// data folder (store.FileRevoker) by default, so a restart forgets nothing;
// Redis (store.Redis) when several instances share it. An error means the
// store could not answer: the session is then not let in.
type Revoker interface {
	Revoke(ctx context.Context, id string, until time.Time) error
	Revoked(ctx context.Context, id string) (bool, error)
}

// memoryRevoker is a Revoker for one instance.
type memoryRevoker struct {
	mu  sync.Mutex
	ids map[string]time.Time
	now func() time.Time
}

// NewMemoryRevoker makes an in-memory Revoker.
func NewMemoryRevoker(now func() time.Time) Revoker {
	return &memoryRevoker{ids: map[string]time.Time{}, now: now}
}

func (m *memoryRevoker) Revoke(_ context.Context, id string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for k, t := range m.ids { // forget what has expired anyway
		if now.After(t) {
			delete(m.ids, k)
		}
	}
	m.ids[id] = until
	return nil
}

func (m *memoryRevoker) Revoked(_ context.Context, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.ids[id]
	return ok, nil
}

// Sessions reads and writes the encrypted, signed session cookie.
type Sessions struct {
	codecs  []securecookie.Codec
	name    string
	pending string
	notice  string
	domain  string
	revoker Revoker
	now     func() time.Time
}

// Key is one pair of cookie keys: 32 bytes to sign, 32 to encrypt.
type Key struct {
	Hash  []byte
	Block []byte
}

// ParseKey reads a key from base64 of 64 bytes (hash key then block key).
func ParseKey(s string) (Key, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawURLEncoding.DecodeString(s)
	}
	if err != nil || len(b) != 64 {
		return Key{}, errors.New("a cookie key must be base64 of 64 random bytes")
	}
	return Key{Hash: b[:32], Block: b[32:]}, nil
}

// RandomKey makes a fresh key, for a server started without configured keys.
func RandomKey() Key {
	b := make([]byte, 64)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return Key{Hash: b[:32], Block: b[32:]}
}

// NewSessions builds the codec. The first key signs and encrypts new
// cookies; all keys are tried on reading, so keys can be rotated by putting
// a new one first. Without a cookie domain the cookie uses the __Host- prefix.
func NewSessions(keys []Key, domain string, revoker Revoker, now func() time.Time) (*Sessions, error) {
	if len(keys) == 0 {
		return nil, errors.New("handlers: no cookie keys")
	}
	s := &Sessions{domain: domain, revoker: revoker, now: now, name: "__Host-lk_session", pending: "__Host-lk_pending", notice: "__Host-lk_notice"}
	if domain != "" {
		s.name, s.pending, s.notice = "lk_session", "lk_pending", "lk_notice"
	}
	for _, k := range keys {
		c := securecookie.New(k.Hash, k.Block)
		c.MaxAge(int(SessionTTL / time.Second))
		c.SetSerializer(securecookie.JSONEncoder{})
		s.codecs = append(s.codecs, c)
	}
	return s, nil
}

// Read returns the valid, unrevoked session of r, or nil when there is
// none. An error says that r holds a valid cookie whose revocation could not
// be checked: it is not let in, and not signed out either.
func (s *Sessions) Read(r *http.Request) (*Session, error) {
	var sess Session
	if !s.decode(r, s.name, &sess) || sess.Token == "" || sess.GUID == "" || !s.now().Before(sess.Expires) {
		return nil, nil
	}
	revoked, err := s.revoker.Revoked(r.Context(), sess.ID)
	if err != nil {
		return nil, fmt.Errorf("handlers: check sign-out: %w", err)
	}
	if revoked {
		return nil, nil
	}
	return &sess, nil
}

// Start makes a new session for a client and sets its cookie.
func (s *Sessions) Start(w http.ResponseWriter, token, guid, name, phone string) error {
	sess := Session{ID: randomID(), Token: token, GUID: guid, Name: name, Phone: phone, Expires: s.now().Add(SessionTTL)}
	return s.Write(w, &sess)
}

// Write stores sess in its cookie (after a profile edit changes the name, say).
func (s *Sessions) Write(w http.ResponseWriter, sess *Session) error {
	v, err := securecookie.EncodeMulti(s.name, sess, s.codecs[0])
	if err != nil {
		return fmt.Errorf("handlers: encode session: %w", err)
	}
	http.SetCookie(w, s.cookie(s.name, v, sess.Expires))
	return nil
}

// End revokes sess and deletes the cookie. When the revocation cannot be
// stored the cookie is kept, so that the customer can sign out again, and
// the error says so.
func (s *Sessions) End(ctx context.Context, w http.ResponseWriter, sess *Session) error {
	if sess != nil {
		if err := s.revoker.Revoke(ctx, sess.ID, sess.Expires); err != nil {
			return fmt.Errorf("handlers: sign out: %w", err)
		}
	}
	http.SetCookie(w, s.cookie(s.name, "", time.Unix(0, 0)))
	return nil
}

// Clear deletes the session cookie without revoking it: for a session the
// provider no longer takes anyway.
func (s *Sessions) Clear(w http.ResponseWriter) {
	http.SetCookie(w, s.cookie(s.name, "", time.Unix(0, 0)))
}

func (s *Sessions) readPending(r *http.Request) (pending, bool) {
	var p pending
	if !s.decode(r, s.pending, &p) || p.Phone == "" || s.now().Sub(p.SentAt) > pendingTTL {
		return pending{}, false
	}
	return p, true
}

func (s *Sessions) writePending(w http.ResponseWriter, p pending) error {
	v, err := securecookie.EncodeMulti(s.pending, p, s.codecs[0])
	if err != nil {
		return fmt.Errorf("handlers: encode pending sign-in: %w", err)
	}
	http.SetCookie(w, s.cookie(s.pending, v, p.SentAt.Add(pendingTTL)))
	return nil
}

func (s *Sessions) clearPending(w http.ResponseWriter) {
	http.SetCookie(w, s.cookie(s.pending, "", time.Unix(0, 0)))
}

// noticeTTL is how long a one-time notice waits for the page it is meant for.
const noticeTTL = time.Minute

// WriteNotice carries msg to the next page the customer sees, once: the
// success of an action shown where the 303 after it lands (DESIGN "After an
// action"). Signed, so nobody can make the account say something else.
func (s *Sessions) WriteNotice(w http.ResponseWriter, msg string) error {
	v, err := s.seal(s.notice, msg)
	if err != nil {
		return err
	}
	http.SetCookie(w, s.cookie(s.notice, v, s.now().Add(noticeTTL)))
	return nil
}

// TakeNotice reads the notice waiting for this page, if any, and deletes it.
func (s *Sessions) TakeNotice(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(s.notice)
	if err != nil || c.Value == "" {
		return ""
	}
	http.SetCookie(w, s.cookie(s.notice, "", time.Unix(0, 0)))
	var msg string
	if !s.open(s.notice, c.Value, &msg) {
		return ""
	}
	return msg
}

// seal encrypts and signs v for a cookie or form field called name.
func (s *Sessions) seal(name string, v any) (string, error) {
	out, err := securecookie.EncodeMulti(name, v, s.codecs[0])
	if err != nil {
		return "", fmt.Errorf("handlers: encode %s: %w", name, err)
	}
	return out, nil
}

// open reads what seal made with any of the keys.
func (s *Sessions) open(name, value string, dst any) bool {
	return value != "" && securecookie.DecodeMulti(name, value, dst, s.codecs...) == nil
}

func (s *Sessions) decode(r *http.Request, name string, dst any) bool {
	c, err := r.Cookie(name)
	if err != nil || c.Value == "" {
		return false
	}
	return securecookie.DecodeMulti(name, c.Value, dst, s.codecs...) == nil
}

func (s *Sessions) cookie(name, value string, expires time.Time) *http.Cookie {
	c := &http.Cookie{
		Name: name, Value: value, Path: "/", Domain: s.domain,
		HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode,
	}
	if value == "" {
		c.MaxAge = -1
	} else {
		c.Expires = expires
		c.MaxAge = int(expires.Sub(s.now()) / time.Second)
		if c.MaxAge <= 0 {
			c.MaxAge = 1
		}
	}
	return c
}

func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
