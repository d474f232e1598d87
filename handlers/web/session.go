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
	"slices"
	"strings"
	"time"

	"lk/store"

	"github.com/gorilla/securecookie"
)

// SessionTTL is how long a sign-in lasts.
const SessionTTL = 7 * 24 * time.Hour

const pendingTTL = 15 * time.Minute

// Session is what the session cookie holds, so that pages need no extra call.
type Session struct {
	ID      string    `json:"i"` // random, for revocation
	Token   string    `json:"t"` // the provider's token; never logged
	GUID    string    `json:"g"` // the client's id at the provider
	Name    string    `json:"n"` // first name for the greeting
	Phone   string    `json:"p"` // digits, 79001234567
	Expires time.Time `json:"e"`
}

const deviceTTL = 365 * 24 * time.Hour

type Pending struct {
	ID     string    `json:"i"` // random: one sign-in of one browser, for double submissions
	Phone  string    `json:"p"`
	Mode   string    `json:"m"` // "login" or "signup"
	SentAt time.Time `json:"s"`
	// Token lets the retry skip the used-up code when the profile did not load.
	Token string `json:"t,omitempty"`
}

type device struct {
	Phones []string `json:"p"`
}

const devicePhones = 5 // phones a browser remembers

// Sessions reads and writes the encrypted, signed session cookie.
type Sessions struct {
	codecs  []securecookie.Codec
	devices []securecookie.Codec // the same keys, a year's age
	name    string
	pending string
	notice  string
	device  string
	domain  string
	revoker store.Revoker
	now     func() time.Time
	tagKey  []byte // keys the phones' tags (phoneTag)
}

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
	s := &Sessions{domain: domain, revoker: revoker, now: now,
		name: "__Host-lk_session", pending: "__Host-lk_pending", notice: "__Host-lk_notice", device: "__Host-lk_device"}
	if domain != "" {
		s.name, s.pending, s.notice, s.device = "lk_session", "lk_pending", "lk_notice", "lk_device"
	}
	for _, k := range keys {
		c := securecookie.New(k.Hash, k.Block)
		c.MaxAge(int(SessionTTL / time.Second))
		c.SetSerializer(securecookie.JSONEncoder{})
		s.codecs = append(s.codecs, c)
		d := securecookie.New(k.Hash, k.Block)
		d.MaxAge(int(deviceTTL / time.Second))
		d.SetSerializer(securecookie.JSONEncoder{})
		s.devices = append(s.devices, d)
	}
	mac := hmac.New(sha256.New, keys[0].Hash)
	mac.Write([]byte("lk-phone-tag"))
	s.tagKey = mac.Sum(nil)
	return s, nil
}

// PhoneTag stands for a phone in the shared store's key names, so no key list
// or append-only file holds a phone number: a hash keyed with the first
// cookie key. Putting a new key first starts the phones' counts afresh.
func (s *Sessions) PhoneTag(phone string) string { return s.Tag(phone) }

// Tag stands for anything a key name must not hold as it is (a phone, a
// client's address, part of a number): a hash keyed with the first cookie
// key. Callers put a kind before what is not a phone ("ip 10.0.0.1").
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
	if !s.decode(r, s.name, &sess) || sess.Token == "" || sess.GUID == "" || !s.now().Before(sess.Expires) {
		return nil
	}
	return &sess
}

// New makes a new session for a client; Write sets its cookie.
func (s *Sessions) New(token, guid, name, phone string) *Session {
	return &Session{ID: RandomID(), Token: token, GUID: guid, Name: name, Phone: phone, Expires: s.now().Add(SessionTTL)}
}

// Write stores sess in its cookie.
func (s *Sessions) Write(w http.ResponseWriter, sess *Session) error {
	v, err := securecookie.EncodeMulti(s.name, sess, s.codecs[0])
	if err != nil {
		return fmt.Errorf("web: encode session: %w", err)
	}
	http.SetCookie(w, s.cookie(s.name, v, sess.Expires))
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
	http.SetCookie(w, s.cookie(s.name, "", time.Unix(0, 0)))
	return nil
}

// CopiesCookie names the sign-in the offline worker's copies belong to
// (handlers' LK-Session token), for the worker to read: without it the
// copies are not shown, so removing the site's cookies removes them too.
// It opens nothing, so it is not HttpOnly; it is this host's alone.
const CopiesCookie = "__Host-lk_copies"

// MarkCopies sets CopiesCookie to owner until the sign-in ends, unless r
// carries it already; an empty owner deletes one r carries.
func (s *Sessions) MarkCopies(w http.ResponseWriter, r *http.Request, owner string, until time.Time) {
	c, err := r.Cookie(CopiesCookie)
	if err == nil && c.Value == owner || err != nil && owner == "" {
		return
	}
	if owner == "" {
		until = time.Unix(0, 0)
	}
	mark := s.cookie(CopiesCookie, owner, until)
	mark.HttpOnly, mark.Domain = false, ""
	http.SetCookie(w, mark)
}

// Clears tells whether a Set-Cookie value deletes the session cookie.
func (s *Sessions) Clears(setCookie string) bool { return strings.HasPrefix(setCookie, s.name+"=;") }

// Clear deletes the cookie without revoking it.
func (s *Sessions) Clear(w http.ResponseWriter) {
	http.SetCookie(w, s.cookie(s.name, "", time.Unix(0, 0)))
}

func (s *Sessions) ReadPending(r *http.Request) (Pending, bool) {
	var p Pending
	if !s.decode(r, s.pending, &p) || p.Phone == "" || s.now().Sub(p.SentAt) > pendingTTL {
		return Pending{}, false
	}
	return p, true
}

func (s *Sessions) WritePending(w http.ResponseWriter, p Pending) error {
	v, err := securecookie.EncodeMulti(s.pending, p, s.codecs[0])
	if err != nil {
		return fmt.Errorf("web: encode pending sign-in: %w", err)
	}
	http.SetCookie(w, s.cookie(s.pending, v, p.SentAt.Add(pendingTTL)))
	return nil
}

func (s *Sessions) ClearPending(w http.ResponseWriter) {
	http.SetCookie(w, s.cookie(s.pending, "", time.Unix(0, 0)))
}

const noticeTTL = time.Minute

// WriteNotice carries msg, signed, to the next page the customer sees, once.
func (s *Sessions) WriteNotice(w http.ResponseWriter, msg string) error {
	v, err := s.Seal(s.notice, msg)
	if err != nil {
		return err
	}
	http.SetCookie(w, s.cookie(s.notice, v, s.now().Add(noticeTTL)))
	return nil
}

// HasNotice tells whether r carries a one-time notice to show.
func (s *Sessions) HasNotice(r *http.Request) bool {
	c, err := r.Cookie(s.notice)
	return err == nil && c.Value != ""
}

// TakeNotice reads and deletes the notice waiting for this page.
func (s *Sessions) TakeNotice(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(s.notice)
	if err != nil || c.Value == "" {
		return ""
	}
	http.SetCookie(w, s.cookie(s.notice, "", time.Unix(0, 0)))
	var msg string
	if !s.Open(s.notice, c.Value, &msg) {
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

func (s *Sessions) KnownDevice(r *http.Request, phone string) bool {
	var d device
	return s.decodeWith(r, s.device, &d, s.devices) && slices.Contains(d.Phones, phone)
}

func (s *Sessions) RememberDevice(w http.ResponseWriter, r *http.Request, phone string) error {
	var d device
	s.decodeWith(r, s.device, &d, s.devices)
	d.Phones = slices.DeleteFunc(d.Phones, func(p string) bool { return p == phone })
	d.Phones = append([]string{phone}, d.Phones[:min(len(d.Phones), devicePhones-1)]...)
	v, err := securecookie.EncodeMulti(s.device, d, s.devices[0])
	if err != nil {
		return fmt.Errorf("web: encode device: %w", err)
	}
	http.SetCookie(w, s.cookie(s.device, v, s.now().Add(deviceTTL)))
	return nil
}

func (s *Sessions) decode(r *http.Request, name string, dst any) bool {
	return s.decodeWith(r, name, dst, s.codecs)
}

func (s *Sessions) decodeWith(r *http.Request, name string, dst any, codecs []securecookie.Codec) bool {
	c, err := r.Cookie(name)
	if err != nil || c.Value == "" {
		return false
	}
	return securecookie.DecodeMulti(name, c.Value, dst, codecs...) == nil
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

func RandomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
