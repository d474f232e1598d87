package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

// A form sent after its session ended is kept on the server for keptFormTTL
// under a random id a cookie names (never the form in the cookie). When the
// customer its token names signs in next in this browser, they land back on
// the form's page filled in, and tap again; anyone else drops it unseen. A
// kept form is taken once, in one atomic step of the store.

const (
	keptFormTTL = 30 * time.Minute
	keptCookie  = "__Host-lk_kept"
	keptSeal    = "lk_kept"
	ownerSeal   = "lk_owner"
	// keptValueMax bounds each answer kept (a refund's reason: 2000 characters).
	keptValueMax = 8 << 10
)

// keptTicket is what the cookie holds, sealed: which kept form, and whether
// its customer has signed in since (then only the form's page takes it).
type keptTicket struct {
	ID   string `json:"i"`
	Back bool   `json:"b,omitempty"`
}

type keptForm struct {
	Owner string `json:"w"` // the tag of the phone whose session sent it
	// Session is the session that signed in since, "" before.
	Session string `json:"s,omitempty"`
	// Page is the form's page, with the choices its address takes.
	Page string `json:"p"`
	// Values are the answers no address carries (a refund's reason, the profile).
	Values url.Values `json:"v,omitempty"`
	// Files keys its documents among the refund files; "" when none.
	Files string `json:"f,omitempty"`
}

// formOwner rides in a form that has no action token (the profile's), so
// that a form kept from it is known to be its customer's.
type formOwner struct {
	Owner  string `json:"w"`
	Issued int64  `json:"t"`
}

var (
	keptQuery   = []string{"date", "lessonId", "sessionId", "from", "to", "dateIn", "dateOut"}
	keptRefund  = []string{"surname", "name", "secondName", "email", "phone", "comment", "tickets"}
	keptProfile = []string{"lastName", "firstName", "middleName", "gender", "birthday"}
)

// keptPages are the only pages a kept form leads back to: an order, its
// move, refund and cancel pages, the profile form.
var keptPages = regexp.MustCompile(`^/orders/(glk|GLK|pavilion|aqua|hotel|celRoom)/[0-9A-Za-z_.-]{1,64}(/(transfer|refund|cancel))?$|^/profile/edit$`)

func (s *Server) newOwnerMark(sess *web.Session) string {
	v, err := s.sessions.Seal(ownerSeal, formOwner{Owner: s.ownerTag(sess), Issued: s.now().Unix()})
	if err != nil {
		s.log.Error("owner mark", "err", err)
	}
	return v
}

// keepLapsed keeps a form posted without a session before the guard sends
// the browser to /login. An island's fetch is left to the guard: its
// island then posts the plain form, which is kept.
func (s *Server) keepLapsed(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if c.Request().Method == http.MethodPost && web.SessionOf(c) == nil && !web.SessionUnknown(c) && !web.WantsJSON(c) {
			s.keepForm(c)
		}
		return next(c)
	}
}

// keepForm reads a form sent after its session ended and keeps it, when it
// is one of ours, sent by a customer (its token or owner mark says whose)
// from a page it can go back to.
func (s *Server) keepForm(c *echo.Context) {
	ctx := c.Request().Context()
	k := keptForm{}
	var in *refundInput
	switch route := c.Path(); route {
	case views.PathProfileEdit:
		var m formOwner
		if !s.sessions.Open(ownerSeal, c.FormValue("owner"), &m) || s.now().Sub(time.Unix(m.Issued, 0)) > tokenTTL {
			return
		}
		k.Owner, k.Page, k.Values = m.Owner, views.PathProfileEdit, keptValues(c.Request().PostForm, keptProfile)
	case routeOrder + "/transfer", routeOrder + "/cancel", routeOrder + "/confirm", routeOrder + "/refund":
		a := action(route[strings.LastIndexByte(route, '/')+1:])
		kind, ok := gateway.ParseKind(c.Param("type"))
		id := c.Param("id")
		if !ok || s.kindOf(kind) == nil || !validID(id) || strings.Trim(id, ".") == "" {
			return
		}
		if a == actRefund {
			in = s.readLapsedRefund(c)
			if in == nil {
				return
			}
			k.Values = keptValues(c.Request().PostForm, keptRefund)
		}
		var t actionToken
		if !s.sessions.Open(tokenName, c.Request().FormValue("token"), &t) || t.Owner == "" || t.Action != a ||
			t.Kind != kind || t.Order != id || s.now().Sub(time.Unix(t.Issued, 0)) > tokenTTL {
			return
		}
		k.Owner, k.Page = t.Owner, views.OrderPath(string(kind), id, string(a))
		switch a {
		case actConfirm:
			k.Page = views.OrderPath(string(kind), id)
		case actTransfer:
			if q := keptValues(c.Request().PostForm, keptQuery); len(q) > 0 && c.FormValue("show") == "" {
				k.Page += "?" + q.Encode()
			} else if d := c.FormValue("date"); d != "" {
				k.Page += "?" + url.Values{"date": {d}}.Encode()
			}
		}
	default:
		return
	}
	id := web.RandomID()
	if in != nil && len(in.files) > 0 {
		k.Files = "kept/" + id
		for _, f := range in.files {
			f.ID = web.RandomID()
			if _, err := s.stores.files.Put(ctx, "kept/"+k.Owner, k.Files, f, keptFormTTL); err != nil {
				s.log.WarnContext(ctx, "document of a form sent after its session ended not kept", "err", err)
			}
		}
	}
	b, err := json.Marshal(k)
	if err == nil && len(b) > store.MaxValue {
		k.Values = nil // the choices in its address are kept still
		b, err = json.Marshal(k)
	}
	if err == nil {
		err = s.stores.kept.Keep(ctx, id, string(b), keptFormTTL)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "form sent after its session ended not kept", "err", err)
		s.dropKeptFiles(ctx, k)
		return
	}
	s.dropKept(c) // an earlier form of this browser gives way
	s.writeKeptTicket(c, keptTicket{ID: id})
}

// readLapsedRefund reads a refund form within the limits of every upload:
// its room in the server (one upload at a time per address here, as there
// is no session), 10 files of 10 MB, the route's body limit.
func (s *Server) readLapsedRefund(c *echo.Context) *refundInput {
	r := c.Request()
	who := "lapsed " + c.RealIP()
	took, _ := s.uploads.take(who, "", r.ContentLength)
	if took {
		defer s.uploads.release(who, r.ContentLength)
	}
	in, err := readRefundInput(c, took)
	if err != nil {
		return nil
	}
	if len(in.fileErrs) > 0 || in.tooMany {
		in.files = nil // chosen again on the form, with the reason why
	}
	return &in
}

func keptValues(form url.Values, names []string) url.Values {
	out := url.Values{}
	for _, n := range names {
		for _, v := range form[n] {
			if v = strings.TrimSpace(v); v != "" && len(v) <= keptValueMax && utf8.ValidString(v) && len(out[n]) < 50 {
				out.Add(n, v)
			}
		}
	}
	return out
}

func (s *Server) keptLogin(c *echo.Context) string {
	if t, ok := s.readKeptTicket(c); ok && !t.Back {
		return msgKeptSignIn
	}
	return ""
}

// keptReturn is where a customer who just signed in goes: their kept form's page, or home.
func (s *Server) keptReturn(c *echo.Context, sess *web.Session) string {
	t, ok := s.readKeptTicket(c)
	if !ok {
		return views.PathHome
	}
	ctx := c.Request().Context()
	s.clearKeptTicket(c)
	k, found := s.takeKept(ctx, t.ID)
	if !found {
		return views.PathHome
	}
	if t.Back || k.Session != "" || k.Owner != s.ownerTag(sess) || !keptPageOK(k.Page) {
		s.dropKeptFiles(ctx, k)
		return views.PathHome
	}
	if len(k.Values) > 0 || k.Files != "" {
		k.Session = sess.ID
		id := web.RandomID()
		b, err := json.Marshal(k)
		if err == nil {
			err = s.stores.kept.Keep(ctx, id, string(b), keptFormTTL)
		}
		if err != nil {
			s.log.ErrorContext(ctx, "kept form not handed to the sign-in", "err", err)
			s.dropKeptFiles(ctx, k)
		} else {
			s.writeKeptTicket(c, keptTicket{ID: id, Back: true})
		}
	}
	if err := s.sessions.WriteNotice(c.Response(), msgKeptBack); err != nil {
		s.log.ErrorContext(ctx, "kept form's notice", "err", err)
	}
	return k.Page
}

// keptFor takes the kept form this session lands on here, or nil; a page
// fetched ahead takes nothing.
func (s *Server) keptFor(c *echo.Context) *keptForm {
	t, ok := s.readKeptTicket(c)
	if !ok || !t.Back || web.IsSpeculative(c) {
		return nil
	}
	ctx := c.Request().Context()
	s.clearKeptTicket(c)
	k, found := s.takeKept(ctx, t.ID)
	if !found {
		return nil
	}
	path, _, _ := strings.Cut(k.Page, "?")
	if sess := web.SessionOf(c); sess == nil || k.Session != sess.ID || path != c.Request().URL.Path {
		s.dropKeptFiles(ctx, k)
		return nil
	}
	return &k
}

func (s *Server) keptDocuments(ctx context.Context, k *keptForm) []store.RefundFile {
	if k.Files == "" {
		return nil
	}
	files, err := s.stores.files.Read(ctx, k.Files)
	if err != nil {
		s.log.ErrorContext(ctx, "kept form's documents not read", "err", err)
	}
	s.dropKeptFiles(ctx, *k)
	return files
}

// restoreRefund fills the refund form in from k, its documents kept as a
// refused attempt's are.
func (s *Server) restoreRefund(ctx context.Context, sess *web.Session, o order, in *refundInput, k *keptForm) views.Errors {
	v := k.Values
	fill := func(dst *string, name string) {
		if x := v.Get(name); x != "" {
			*dst = x
		}
	}
	fill(&in.form.Surname, "surname")
	fill(&in.form.Name, "name")
	fill(&in.form.SecondName, "secondName")
	fill(&in.form.Email, "email")
	fill(&in.form.Phone, "phone")
	fill(&in.form.Comment, "comment")
	if t := slices.DeleteFunc(slices.Clone(v["tickets"]), func(id string) bool { return !o.paidTicket(id) }); len(t) > 0 {
		in.tickets = t
	}
	files := s.keptDocuments(ctx, k)
	if in.mode != gateway.RefundModeration || len(files) == 0 {
		return nil
	}
	in.files = files
	return s.keepRefundFiles(ctx, sess, refundFilesKey(sess, o), in)
}

func restoreProfile(f *views.ProfileForm, k *keptForm) {
	for _, p := range []struct {
		dst  *string
		name string
	}{{&f.LastName, "lastName"}, {&f.FirstName, "firstName"}, {&f.MiddleName, "middleName"}, {&f.Gender, "gender"}, {&f.Birthday, "birthday"}} {
		if x := k.Values.Get(p.name); x != "" {
			*p.dst = x
		}
	}
	if f.Gender != "MALE" && f.Gender != "FEMALE" {
		f.Gender = ""
	}
}

func keptPageOK(page string) bool {
	u, err := url.Parse(page)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Fragment != "" || !keptPages.MatchString(u.Path) {
		return false
	}
	for name := range u.Query() {
		if !slices.Contains(keptQuery, name) {
			return false
		}
	}
	return true
}

func (s *Server) takeKept(ctx context.Context, id string) (keptForm, bool) {
	v, err := s.stores.kept.Take(ctx, id)
	if err != nil {
		s.log.ErrorContext(ctx, "kept form not read", "err", err)
		return keptForm{}, false
	}
	var k keptForm
	if v == "" || json.Unmarshal([]byte(v), &k) != nil {
		return keptForm{}, false
	}
	return k, true
}

// dropKept forgets the form this browser's cookie names, its documents too.
func (s *Server) dropKept(c *echo.Context) {
	if t, ok := s.readKeptTicket(c); ok {
		if k, found := s.takeKept(c.Request().Context(), t.ID); found {
			s.dropKeptFiles(c.Request().Context(), k)
		}
	}
}

func (s *Server) dropKeptFiles(ctx context.Context, k keptForm) {
	if k.Files == "" {
		return
	}
	if err := s.stores.files.Clear(ctx, k.Files); err != nil {
		s.log.WarnContext(ctx, "kept form's documents not cleared", "err", err)
	}
}

func (s *Server) readKeptTicket(c *echo.Context) (keptTicket, bool) {
	ck, err := c.Request().Cookie(keptCookie)
	if err != nil {
		return keptTicket{}, false
	}
	var t keptTicket
	return t, s.sessions.Open(keptSeal, ck.Value, &t) && t.ID != ""
}

func (s *Server) writeKeptTicket(c *echo.Context, t keptTicket) {
	v, err := s.sessions.Seal(keptSeal, t)
	if err != nil {
		s.log.ErrorContext(c.Request().Context(), "kept form's cookie", "err", err)
		return
	}
	http.SetCookie(c.Response(), &http.Cookie{Name: keptCookie, Value: v, Path: "/", MaxAge: int(keptFormTTL / time.Second),
		Expires: s.now().Add(keptFormTTL), HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
}

func (s *Server) clearKeptTicket(c *echo.Context) {
	http.SetCookie(c.Response(), &http.Cookie{Name: keptCookie, Path: "/", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
}
