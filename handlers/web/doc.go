// Package web is the account's request plumbing: what a request carries
// (request.go), how an answer is written (response.go, compress.go, frame.go),
// and the middleware between them, each a small value built in
// handlers/routes.go with only what it needs. It knows nothing of orders,
// customers or the provider: it follows the provider's calls through Calls,
// draws pages through Shell and tells uploads through Uploads.
package web
