package handlers_test

import "testing"

// TestStateUnderEverySetup runs the tests of what the handlers keep beyond
// a request (moved bookings' old links and passes, one-time forms and their outcomes,
// one action per order, kept refund files, sign-outs, sign-in limits) once
// per setup of the shared state. The whole suite runs on the default setup,
// the data folder (storeSetups[0]); these run on the others too, so that a
// difference between the stores shows as a failure here, not in production.
func TestStateUnderEverySetup(t *testing.T) {
	suites := []struct {
		name string
		test func(*testing.T)
	}{
		{"moved bookings", TestOldLinkOfMovedBookingRedirects},
		{"a moved lesson's pass", TestMovedLessonsPassIsGone},
		{"a refunded order's pass", TestRefundedTicketsLeaveThePasses},
		{"one-time forms", TestActionTokenOnceUnderBurst},
		{"a failed form tried again", TestActionFailureKeepsAChance},
		{"repeated refund forms", TestRefundTokenBurst},
		{"repeated refund forms with a broken rule", TestRepeatedRefundWithABrokenRule},
		{"one action per order", TestOneActionPerOrder},
		{"kept refund files", TestRefundFaultKeepsFiles},
		{"refund files per session", TestRefundFilesStayWithTheirSession},
		{"kept documents per customer", TestKeptDocumentsPerCustomer},
		{"sign-out", TestSignOutRevokesTheSession},
		{"wrong codes", TestParallelWrongGuessesReachTheProviderAtMost3Times},
		{"a right code once", TestRightCodeSubmitted30TimesSignsInOnce},
		{"codes per phone", TestCodesPerPhoneWindow},
		{"forms kept for the sign-in", TestKeptFormEveryKind},
		{"a kept refund's document", TestKeptRefundWithADocument},
		{"a kept form and another customer", TestKeptFormNotForAnotherCustomer},
		{"a kept form taken once", TestKeptFormTakenOnceUnderBurst},
	}
	for _, name := range storeSetups[1:] {
		t.Run(name, func(t *testing.T) {
			storesChosen.Store(t.Name(), name)
			for _, s := range suites {
				t.Run(s.name, s.test)
			}
		})
	}
}
