// Package web is the account's request plumbing, in the layers of an HTTP
// server: what a request carries (request.go: its session, nonce, id, and
// whether it was fetched ahead of a tap), how an answer is written
// (response.go, compress.go, frame.go: an island's JSON or a whole page,
// compressed), and the middleware between them, each a small value built in
// handlers/routes.go with only what it needs: the access log and metrics,
// tracing, security headers, admission under overload, the loading frame,
// body limits, sessions, static files, health and the error pages.
//
// It knows nothing of orders, customers or the provider: it follows the
// provider's calls through Calls, draws pages through handlers' Shell, and
// tells uploads through Uploads.
package web
