package handlers

import (
	"io/fs"
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"lk/handlers/web"
	"lk/views"
)

// shell is every page's frame: the site, its files, and the customer's first
// name as the profile last said.
type shell struct {
	site      *views.Site
	assets    *views.Assets
	static    fs.FS // the files behind the assets
	publicURL string
	sessions  *web.Sessions
	names     names
	now       func() time.Time
}

// absolute is path as an absolute URL of the account, never built from the
// Host anyone can set.
func (sh *shell) absolute(path string) string { return sh.publicURL + path }

// Page is a page's frame with the name the shell knows, asking nothing of
// the provider: also an error's page, which may answer a stranger.
func (sh *shell) Page(c *echo.Context, title, description string) views.Page {
	p := views.Page{Title: title, Description: description, Nonce: web.Nonce(c), Site: sh.site, Assets: sh.assets}
	if sess := web.SessionOf(c); sess != nil {
		name, ok := sh.names.get(sess.GUID, sh.now())
		if !ok {
			name = sess.Name
		}
		p.User = &views.User{Name: name}
		if !web.IsSpeculative(c) {
			p.Notice = sh.sessions.TakeNotice(c.Response(), c.Request())
		}
		p.Speculate = !web.SavesData(c.Request())
	}
	return p
}

// nameKept bounds both the profile reads per customer for the shell and how
// late a name changed at the resort shows on every page.
const nameKept = 5 * time.Minute

// names are the customers' first names by client id, for every page's shell.
type names struct {
	mu sync.Mutex
	m  map[string]keptName
}

type keptName struct {
	name string
	at   time.Time
}

func (n *names) get(guid string, now time.Time) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	k, ok := n.m[guid]
	if !ok || now.Sub(k.at) >= nameKept || now.Before(k.at) {
		return "", false
	}
	return k.name, true
}

func (n *names) put(guid, name string, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.m == nil {
		n.m = map[string]keptName{}
	}
	if len(n.m) >= 4096 { // memory follows the customers of the last minutes
		for g, k := range n.m {
			if now.Sub(k.at) >= nameKept || now.Before(k.at) {
				delete(n.m, g)
			}
		}
	}
	n.m[guid] = keptName{name, now}
}
