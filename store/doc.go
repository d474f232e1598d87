// Package store keeps the state the personal account shares beyond one
// request, behind the small interfaces of package handlers: the sign-out
// deny-list and the first ids of moved bookings in the data folder (the
// embedded default, so a restart forgets neither), and everything in Redis
// when several instances run (LK_REDIS_URL): sign-in limits, the deny-list,
// one-time action tokens with their outcomes, refund files kept for a
// retry, and the first ids of moved bookings.
package store
