package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"time"

	"lk/store"

	"github.com/gorilla/securecookie"
)

// sessionTTL is how long a sign-in lasts.
const sessionTTL = 7 * 24 * time.Hour

// Session is what the session cookie holds, so that pages need no extra call.
type Session struct {
	ID      string    `json:"i"` // random, for revocation
	Token   string    `json:"t"` // the provider's token; never logged
	GUID    string    `json:"g"` // the client's id at the provider
	Name    string    `json:"n"` // first name for the greeting
	Phone   string    `json:"p"` // digits, 79001234567
	Expires time.Time `json:"e"`
}

// Sessions reads and writes the encrypted, signed session cookie.
type Sessions struct {
	codecs  []securecookie.Codec
	long    []securecookie.Codec // the same keys, a year's age
	prefix  string               // of every cookie's name
	domain  string
	revoker store.Revoker
	now     func() time.Time
	tagKey  []byte // keys the tags (Tag)
}

// longAge is what a browser remembers (OpenLong).
const longAge = 365 * 24 * time.Hour

// Key is one pair of cookie keys: 32 bytes to sign, 32 to encrypt.
type Key struct {
	Hash  []byte
	Block []byte
}

// ParseKey reads base64 of 64 bytes (hash key then block key).
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

// RandomKey makes a fresh key, for a server without configured keys.
func RandomKey() Key {
	b := make([]byte, 64)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return Key{Hash: b[:32], Block: b[32:]}
}

// NewSessions builds the codec: the first key signs, all are tried on reading.
// A new key is added last on every instance before it is moved first.
func NewSessions(keys []Key, domain string, revoker store.Revoker, now func() time.Time) (*Sessions, error) {
	if len(keys) == 0 {
		return nil, errors.New("web: no cookie keys")
	}
	if revoker == nil {
		revoker = store.NewMemoryRevoker(now)
	}
	s := &Sessions{domain: domain, revoker: revoker, now: now, prefix: "__Host-lk_"}
	if domain != "" {
		s.prefix = "lk_"
	}
	for _, k := range keys {
		c := securecookie.New(k.Hash, k.Block)
		c.MaxAge(int(sessionTTL / time.Second))
		c.SetSerializer(securecookie.JSONEncoder{})
		s.codecs = append(s.codecs, c)
		d := securecookie.New(k.Hash, k.Block)
		d.MaxAge(int(longAge / time.Second))
		d.SetSerializer(securecookie.JSONEncoder{})
		s.long = append(s.long, d)
	}
	mac := hmac.New(sha256.New, keys[0].Hash)
	mac.Write([]byte("lk-phone-tag"))
	s.tagKey = mac.Sum(nil)
	return s, nil
}

// Tag stands for anything a key name must not hold as it is (a phone, a
// client's address, part of a number): a hash keyed with the first cookie
// key, so putting a new key first starts afresh. Callers put a kind before
// what is not a phone ("ip 10.0.0.1").
func (s *Sessions) Tag(v string) string {
	mac := hmac.New(sha256.New, s.tagKey)
	mac.Write([]byte(v))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:16])
}

// Read returns the valid, unrevoked session of r, or nil. An error is a
// revocation that could not be checked: not let in, not signed out either.
func (s *Sessions) Read(r *http.Request) (*Session, error) {
	sess := s.CookieSession(r)
	if sess == nil {
		return nil, nil
	}
	revoked, err := s.revoker.Revoked(r.Context(), sess.ID)
	if err != nil {
		return nil, fmt.Errorf("web: check sign-out: %w", err)
	}
	if revoked {
		return nil, nil
	}
	return sess, nil
}

func (s *Sessions) CookieSession(r *http.Request) *Session {
	var sess Session
	if !s.decode(r, s.CookieName("session"), &sess) || sess.Token == "" || sess.GUID == "" || !s.now().Before(sess.Expires) {
		return nil
	}
	return &sess
}

// New makes a new session for a client; Write sets its cookie.
func (s *Sessions) New(token, guid, name, phone string) *Session {
	return &Session{ID: RandomID(), Token: token, GUID: guid, Name: name, Phone: phone, Expires: s.now().Add(sessionTTL)}
}

// Write stores sess in its cookie.
func (s *Sessions) Write(w http.ResponseWriter, sess *Session) error {
	v, err := securecookie.EncodeMulti(s.CookieName("session"), sess, s.codecs[0])
	if err != nil {
		return fmt.Errorf("web: encode session: %w", err)
	}
	http.SetCookie(w, s.Cookie(s.CookieName("session"), v, sess.Expires))
	return nil
}

// A sign-out outlives its cookie by this much, so a clock that jumps ahead and
// back cannot drop the revocation while the cookie still opens the account.
const revokedBeyond = 30 * 24 * time.Hour

// End revokes sess and deletes the cookie; a revocation that cannot be
// stored keeps the cookie, so that the customer can sign out again.
func (s *Sessions) End(ctx context.Context, w http.ResponseWriter, sess *Session) error {
	if sess != nil {
		if err := s.revoker.Revoke(ctx, sess.ID, sess.Expires.Add(revokedBeyond)); err != nil {
			return fmt.Errorf("web: sign out: %w", err)
		}
	}
	http.SetCookie(w, s.Cookie(s.CookieName("session"), "", time.Unix(0, 0)))
	return nil
}

// Clear deletes the cookie without revoking it.
func (s *Sessions) Clear(w http.ResponseWriter) {
	http.SetCookie(w, s.Cookie(s.CookieName("session"), "", time.Unix(0, 0)))
}

const noticeTTL = time.Minute

// WriteNotice carries msg, signed, to the next page the customer sees, once.
func (s *Sessions) WriteNotice(w http.ResponseWriter, msg string) error {
	v, err := s.Seal(s.CookieName("notice"), msg)
	if err != nil {
		return err
	}
	http.SetCookie(w, s.Cookie(s.CookieName("notice"), v, s.now().Add(noticeTTL)))
	return nil
}

// hasNotice tells whether r carries a one-time notice to show.
func (s *Sessions) hasNotice(r *http.Request) bool {
	c, err := r.Cookie(s.CookieName("notice"))
	return err == nil && c.Value != ""
}

// TakeNotice reads and deletes the notice waiting for this page.
func (s *Sessions) TakeNotice(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(s.CookieName("notice"))
	if err != nil || c.Value == "" {
		return ""
	}
	http.SetCookie(w, s.Cookie(s.CookieName("notice"), "", time.Unix(0, 0)))
	var msg string
	if !s.Open(s.CookieName("notice"), c.Value, &msg) {
		return ""
	}
	return msg
}

func (s *Sessions) Seal(name string, v any) (string, error) {
	out, err := securecookie.EncodeMulti(name, v, s.codecs[0])
	if err != nil {
		return "", fmt.Errorf("web: encode %s: %w", name, err)
	}
	return out, nil
}

func (s *Sessions) Open(name, value string, dst any) bool {
	return value != "" && securecookie.DecodeMulti(name, value, dst, s.codecs...) == nil
}

func (s *Sessions) decode(r *http.Request, name string, dst any) bool {
	c, err := r.Cookie(name)
	return err == nil && s.Open(name, c.Value, dst)
}

// OpenLong is Open for what a browser remembers for a year.
func (s *Sessions) OpenLong(name, value string, dst any) bool {
	return value != "" && securecookie.DecodeMulti(name, value, dst, s.long...) == nil
}

// CookieName is the name of the account's cookie of base ("session", "notice").
func (s *Sessions) CookieName(base string) string { return s.prefix + base }

// Cookie is the account's cookie of name: HttpOnly, Secure, SameSite=Lax;
// an empty value deletes it.
func (s *Sessions) Cookie(name, value string, expires time.Time) *http.Cookie {
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

func RandomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
