package handlers

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

// The server tells the offline worker (islands/sw) what it may keep: hdrSession
// is the answer's sign-in token, or "none", on which the worker drops every copy
// (absent when sign-outs could not be checked), and copiesCookie the same
// token, which the worker reads offline; hdrKeep names the documents of
// today's and tomorrow's orders to keep unopened.
const (
	hdrSession  = "LK-Session"
	hdrKeep     = "LK-Keep"
	sessionNone = "none"
)

// hdrSession is set once the handler is done, so that an answer that ended
// the session says so.
func (s *Server) offlineMarks(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r, _ := echo.UnwrapResponse(c.Response())
		if r == nil || strings.HasPrefix(c.Request().URL.Path, "/static/") {
			return next(c)
		}
		h := r.Header()
		r.Before(func() {
			unknown := web.SessionUnknown(c)
			sess := web.SessionOf(c)
			switch {
			case s.clearsSession(h):
				h.Set(hdrSession, sessionNone)
				s.markCopies(r, c.Request(), "", time.Time{})
			case sess != nil:
				owner := copyOwner(sess)
				h.Set(hdrSession, owner)
				s.markCopies(r, c.Request(), owner, sess.Expires)
			case !unknown:
				h.Set(hdrSession, sessionNone)
				s.markCopies(r, c.Request(), "", time.Time{})
			}
		})
		return next(c)
	}
}

func (s *Server) clearsSession(h http.Header) bool {
	for _, v := range h.Values("Set-Cookie") {
		if strings.HasPrefix(v, s.sessions.CookieName("session")+"=;") { // the session cookie deleted
			return true
		}
	}
	return false
}

// One token per sign-in, not the session's id, which signs it out; after a dot
// its end (Unix seconds), so an offline phone stops showing copies by itself.
func copyOwner(sess *web.Session) string {
	sum := sha256.Sum256([]byte("lk offline copies\x00" + sess.ID))
	return base64.RawURLEncoding.EncodeToString(sum[:12]) + "." + strconv.FormatInt(sess.Expires.Unix(), 10)
}

// The documents kept before they are opened: of orders not cancelled,
// today or tomorrow in the resort's calendar, the document that may be
// opened and the Wallet passes offered.
func (s *Server) offerOffline(c *echo.Context, p *views.Page, set orderSet) {
	p.Worker = true
	today := gateway.Day(s.now(), s.loc)
	after := today.AddDate(0, 0, 2) // the start of the day after tomorrow
	var urls []string
	for _, o := range set.all {
		last := o.ref.Start
		if o.ref.End.After(last) {
			last = o.ref.End
		}
		if o.ref.Canceled || o.ref.Start.IsZero() || !o.ref.Start.Before(after) || last.Before(today) {
			continue
		}
		if doc := o.kind.info().document; doc != nil && o.noDoc == "" {
			urls = append(urls, o.url(doc.file))
		}
		if s.offersPass(o) {
			urls = append(urls, s.passURL(o))
		}
	}
	if len(urls) > 0 {
		c.Response().Header().Set(hdrKeep, strings.Join(urls, " "))
	}
}

// From the root, so that its scope is the whole site; no-cache, so a new
// build replaces the old worker at once.
func (s *Server) worker(c *echo.Context) error {
	file, ok := s.shell.assets.File(views.WorkerEntry)
	if !ok {
		return web.ErrNotFound
	}
	body, err := fs.ReadFile(s.shell.static, "dist/"+file)
	if err != nil {
		return web.ErrNotFound
	}
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("Service-Worker-Allowed", "/")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", body)
}

func appManifest() []byte {
	type icon struct {
		Src     string `json:"src"`
		Sizes   string `json:"sizes"`
		Type    string `json:"type"`
		Purpose string `json:"purpose,omitempty"`
	}
	b, err := json.Marshal(struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		ShortName   string `json:"short_name"`
		Description string `json:"description"`
		Lang        string `json:"lang"`
		Dir         string `json:"dir"`
		StartURL    string `json:"start_url"`
		Scope       string `json:"scope"`
		Display     string `json:"display"`
		Theme       string `json:"theme_color"`
		Background  string `json:"background_color"`
		Icons       []icon `json:"icons"`
	}{
		ID: views.PathHome, Name: "Личный кабинет курорта", ShortName: "Курорт",
		Description: "Заказы, билеты и ваучеры курорта, в том числе без интернета.",
		Lang:        "ru", Dir: "ltr", StartURL: views.PathHome, Scope: views.PathHome, Display: "standalone",
		Theme: views.ThemeColor, Background: views.BackgroundColor,
		Icons: []icon{
			{Src: "/static/img/app-icon-192.png", Sizes: "192x192", Type: "image/png"},
			{Src: "/static/img/app-icon-512.png", Sizes: "512x512", Type: "image/png"},
			{Src: "/static/img/app-icon-maskable-512.png", Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
		},
	})
	if err != nil {
		panic(err) // a fixed struct of strings always marshals
	}
	return b
}

func (s *Server) manifest(c *echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.Blob(http.StatusOK, "application/manifest+json", appManifest())
}

// Built without the session, so the worker's copy names nobody.
func (s *Server) offline(c *echo.Context) error {
	p := views.Page{Title: "Нет соединения", Description: "Страница без интернета.", Nonce: web.Nonce(c), Site: s.shell.site, Assets: s.shell.assets}
	return s.render(c, http.StatusOK, views.OfflinePage(p))
}

const clearSiteData = `"cache", "storage"`
