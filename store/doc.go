// Package store keeps the state the personal account shares beyond one
// request, behind small interfaces: sign-in limits, the sign-out deny-list,
// work done once per key with its outcome (one-time action tokens, sign-in
// codes), leases that let one action at a time run on an order, refund
// files kept for a retry, the first ids of moved bookings, and what each
// customer last did to an order. Three kinds of keeping: memory for one
// instance, the data folder for what one instance must not forget on a
// restart (sign-outs, moved bookings, used action tokens with their
// outcomes, what was done to orders), and Redis for everything when
// several instances run (LK_REDIS_URL).
package store
