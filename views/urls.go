package views

import "net/url"

// Paths of the product. Handlers register routes with these and views link
// with them, so a URL is spelled in one place.
const (
	PathHome        = "/"
	PathLogin       = "/login"
	PathLoginCode   = "/login/code"
	PathLoginResend = "/login/resend"
	PathSignup      = "/signup"
	PathLogout      = "/logout"
	PathProfileEdit = "/profile/edit"
	PathOrders      = "/orders"
	// The installable app: its manifest, its offline worker (at the root, so
	// that its scope is the whole site) and the page the worker shows for a
	// page it never kept.
	PathManifest = "/manifest.webmanifest"
	PathWorker   = "/sw.js"
	PathOffline  = "/offline"
)

// OrderPath is the detail page of an order; action, if given, is a page or
// action under it ("confirm", "refund", "ticket.pdf", …).
func OrderPath(kind, id string, action ...string) string {
	p := "/orders/" + kind + "/" + url.PathEscape(id)
	for _, a := range action {
		p += "/" + a
	}
	return p
}
