// Package gateway is the typed client of the resort provider's API gateway v1:
// one context-first method per call, the provider's wire types with
// their exact JSON names, typed errors that keep the provider's message, and
// the pure business rules on orders (status labels, active/history split,
// refund mode, transfer windows, slot and date-range checks).
//
// It knows nothing of HTTP handlers or views.
package gateway
