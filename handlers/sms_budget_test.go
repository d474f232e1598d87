package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"lk/handlers"
	"lk/store"
)

// apartPhone is the i-th of phones that share no prefix (all but the last
// four digits), so that only the limit a test is about is met.
func apartPhone(i int) string { return fmt.Sprintf("79%02d%03d%04d", 10+i%90, i/90, i) }

// appBehindProxy is an app that believes X-Forwarded-For from loopback, so
// that a test can speak from many addresses; limiter nil: in memory.
func appBehindProxy(t *testing.T, limiter store.Limiter, set func(*handlers.Options)) *app {
	return newAppSetup(t, setup{limiter: limiter, options: func(o *handlers.Options) {
		behindProxy(o)
		if set != nil {
			set(o)
		}
	}})
}

func (a *app) signupFrom(ip, phone string, json bool) *resp {
	return a.signupWith(a.newClient(), ip, phone, json)
}

func (a *app) signupWith(c *http.Client, ip, phone string, json bool) *resp {
	h := http.Header{"X-Forwarded-For": {ip}}
	if json {
		h.Set("Accept", "application/json")
	}
	return a.postWith(c, "/signup", url.Values{"phone": {phone}, "firstName": {"Иван"}, "lastName": {"Иванов"}}, h)
}

// providerCalls is how often the provider was asked to register a phone or
// to send a code.
func (a *app) providerCalls() int {
	calls := a.sb.AllCalls()
	return calls["reg/registration"] + calls["auth/login2f"]
}

// SMS pumping: 40 addresses ask codes for 30 sequential numbers each, all
// +7 900 777 xxxx, at once, half with JavaScript off and half as the
// island asks (JSON). Numbers that differ only in their last four
// digits reach the provider at most 20 times an hour, whoever asks; the
// rest are told to try later, with Retry-After. An hour later the prefix
// has room again.
func TestSequentialNumbersReachTheProviderAtMost20TimesAnHour(t *testing.T) {
	for name, limiter := range map[string]func(t *testing.T) store.Limiter{
		"memory": func(*testing.T) store.Limiter { return nil },
		"redis":  func(t *testing.T) store.Limiter { return startRedis(t).Open() },
	} {
		t.Run(name, func(t *testing.T) {
			a := appBehindProxy(t, limiter(t), nil)
			var reached, refused atomic.Int32
			parallel(40, func(ip int) {
				c := a.newClient()
				from := fmt.Sprintf("198.51.100.%d", ip+1)
				for n := range 30 {
					phone := fmt.Sprintf("7900777%04d", ip*30+n)
					h := http.Header{"X-Forwarded-For": {from}}
					if n%2 == 1 {
						h.Set("Accept", "application/json")
					}
					r := a.postWith(c, "/login", url.Values{"phone": {phone}}, h)
					switch r.StatusCode {
					case http.StatusSeeOther, http.StatusOK, http.StatusUnprocessableEntity: // sent, or refused by the provider
						reached.Add(1)
					case http.StatusTooManyRequests:
						refused.Add(1)
						if r.Header.Get("Retry-After") == "" || !strings.Contains(r.body, "Сейчас слишком много запросов кода. Попробуйте позже.") {
							t.Errorf("%s: %q %.300s", phone, r.Header.Get("Retry-After"), r.body)
						}
					default:
						t.Errorf("%s: %d %.300s", phone, r.StatusCode, r.body)
					}
				}
			})
			if reached.Load() != 20 || refused.Load() != 1200-20 || a.sb.AllCalls()["auth/login2f"] > 20 {
				t.Errorf("reached %d, refused %d, provider asked %d times: want 20 an hour",
					reached.Load(), refused.Load(), a.sb.AllCalls()["auth/login2f"])
			}
			before := a.providerCalls()
			a.clock.Add(time.Hour)
			if r := a.signupFrom("203.0.113.1", "79007771999", false); r.StatusCode != http.StatusSeeOther {
				t.Errorf("an hour later: %d %q", r.StatusCode, r.text("#error-summary"))
			}
			if a.providerCalls() == before {
				t.Error("an hour later the provider was not asked")
			}
			if strings.Contains(a.logs.String(), "79007771") || strings.Contains(a.logs.String(), "79007770") {
				t.Error("a full phone number in the log")
			}
		})
	}
}

// The service's budget holds under a burst from everywhere: of 40 parallel
// sign-ups from 40 addresses to 40 unrelated numbers, exactly the sign-ups'
// share of the hour's budget (half of it) reach the provider; a warning
// reaches the log once at 80 % of that share, the metrics show the share
// used and the refusals by who asked; the day's share holds across hours.
func TestSMSBudgetHoldsUnderABurst(t *testing.T) {
	for name, limiter := range map[string]func(t *testing.T) store.Limiter{
		"memory": func(*testing.T) store.Limiter { return nil },
		"redis":  func(t *testing.T) store.Limiter { return startRedis(t).Open() },
	} {
		t.Run(name, func(t *testing.T) {
			a := appBehindProxy(t, limiter(t), func(o *handlers.Options) { o.SMSBudget = handlers.SMSBudget{Hour: 10, Day: 15} })
			answers := atOnce(40, func(i int) *resp { return a.signupFrom(fmt.Sprintf("198.51.100.%d", i+1), apartPhone(i), i%2 == 0) })
			// A code the provider failed to send (a busy machine) gives its
			// place back, perhaps after others were refused.
			if got := byStatus(answers); got[http.StatusTooManyRequests] < 35 || a.sb.AllCalls()["auth/login2f"] > 5 ||
				got[http.StatusServiceUnavailable] == 0 && (got[http.StatusTooManyRequests] != 35 || a.sb.AllCalls()["auth/login2f"] != 5) {
				t.Fatalf("answers %v, codes sent %d: want 5 sent, 35 refused", got, a.sb.AllCalls()["auth/login2f"])
			}
			for _, r := range answers {
				if r.StatusCode == http.StatusTooManyRequests && (r.Header.Get("Retry-After") == "" || !strings.Contains(r.body, "Сейчас слишком много запросов кода. Попробуйте позже.")) {
					t.Fatalf("a refusal: %q %.300s", r.Header.Get("Retry-After"), r.body)
				}
			}
			if n := strings.Count(a.logs.String(), `"SMS code budget 80 % used","budget":"sms_hour_signup"`); n != 1 {
				t.Errorf("%d warnings of the sign-ups' hour at 80 %%, want 1:\n%s", n, a.logs.String())
			}
			// One warning for the burst, the refusals counted.
			if n := strings.Count(a.logs.String(), `"SMS code budget spent: code refused","class":"signup","budget":"sms_hour_signup"`); n != 1 {
				t.Errorf("%d warnings of refused sign-ups, want 1", n)
			}
			m := a.metrics()
			// The gauge is as of a late code of the burst, whichever wrote last.
			if !regexp.MustCompile(`lk_sms_budget_used_ratio\{budget="sms_hour_signup"\} (1|0\.[89])\n`).MatchString(m) ||
				!strings.Contains(m, `lk_signin_limit_refusals_total{limit="sms_hour_signup"} 35`) ||
				!strings.Contains(m, `lk_sms_budget_refusals_total{budget="sms_hour_signup",class="signup"} 35`) {
				t.Errorf("metrics:\n%s", m)
			}
			a.clock.Add(time.Hour)
			before := a.sb.AllCalls()["auth/login2f"]
			answers = atOnce(10, func(i int) *resp { return a.signupFrom(fmt.Sprintf("203.0.113.%d", i+1), apartPhone(50+i), false) })
			if got := byStatus(answers); got[http.StatusServiceUnavailable] == 0 && a.sb.AllCalls()["auth/login2f"] != before+min(5, 7-before) || a.sb.AllCalls()["auth/login2f"] > 7 {
				t.Errorf("next hour: answers %v, codes sent %d: want the sign-ups' 7 of the day in all", got, a.sb.AllCalls()["auth/login2f"])
			}
			if before == 5 && !strings.Contains(a.metrics(), `lk_signin_limit_refusals_total{limit="sms_day_signup"}`) {
				t.Error("the day's refusals not counted")
			}
		})
	}
}

// An SMS pump spends the sign-ups' share of the budget and no more, however
// it asks: it signs up fresh numbers, then asks /login for the same numbers
// from other addresses, as a customer on a new browser would. A number is a
// customer's only once a code sent to it was entered, so the pump's logins
// come from the sign-ups' share too, and refused: the customer who signed in
// from this browser before still gets a code, and so does a customer on a
// browser the account has never seen. Under every setup of the shared state,
// with the pump's requests all at once.
func TestSMSPumpCannotSpendTheCustomersCodes(t *testing.T) {
	for _, name := range storeSetups {
		t.Run(name, func(t *testing.T) {
			const hour = 40
			a := newAppSetup(t, setup{stores: name, options: func(o *handlers.Options) {
				behindProxy(o)
				o.SMSBudget = handlers.SMSBudget{Hour: hour, Day: 1000}
			}})
			owner := a.newClient()
			a.signIn(owner, demoPhone) // this browser is now known for the phone
			a.postWith(owner, "/logout", nil, nil)
			a.signIn(a.newClient(), otherPhone) // on a phone since lost
			a.clock.Add(time.Hour)              // the hour's budget is whole again
			answers := atOnce(2*hour, func(i int) *resp {
				return a.signupFrom(fmt.Sprintf("198.51.100.%d", i+1), apartPhone(i), i%2 == 0)
			})
			if got := byStatus(answers); got[http.StatusTooManyRequests] < 2*hour-hour/2 ||
				got[http.StatusServiceUnavailable] == 0 && got[http.StatusTooManyRequests] != 2*hour-hour/2 {
				t.Fatalf("sign-ups: %v, want %d sent", got, hour/2)
			}
			a.clock.Add(time.Minute) // each number may have a new code
			sent := a.sb.AllCalls()["auth/login2f"]
			answers = atOnce(2*hour, func(i int) *resp {
				h := http.Header{"X-Forwarded-For": {fmt.Sprintf("192.0.2.%d", i+1)}}
				if i%2 == 0 {
					h.Set("Accept", "application/json")
				}
				return a.postWith(a.newClient(), "/login", url.Values{"phone": {apartPhone(i)}}, h)
			})
			for _, r := range answers {
				if r.StatusCode != http.StatusTooManyRequests || !strings.Contains(r.body, "Сейчас слишком много запросов кода. Попробуйте позже.") {
					t.Fatalf("the pump's login: %d %.300s", r.StatusCode, r.body)
				}
			}
			if n := a.sb.AllCalls()["auth/login2f"]; n != sent {
				t.Fatalf("the pump's logins sent %d codes", n-sent)
			}
			r := a.postWith(a.newClient(), "/login", url.Values{"phone": {otherPhone}}, http.Header{"X-Forwarded-For": {"203.0.113.8"}})
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login/code" || a.sb.AllCalls()["auth/login2f"] != sent+1 {
				t.Fatalf("a customer on a new browser: %d %q", r.StatusCode, r.text("#error-summary"))
			}
			r = a.postWith(owner, "/login", url.Values{"phone": {demoPhone}}, http.Header{"X-Forwarded-For": {"203.0.113.7"}})
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/login/code" || a.sb.AllCalls()["auth/login2f"] != sent+2 {
				t.Fatalf("the customer on his browser: %d %q %q", r.StatusCode, r.Header.Get("Location"), r.text("#error-summary"))
			}
			if m := a.metrics(); !strings.Contains(m, fmt.Sprintf(`lk_sms_budget_refusals_total{budget="sms_hour_signup",class="new_number"} %d`, 2*hour)) {
				t.Errorf("the pump's logins not counted as codes to new numbers:\n%s", m)
			}
		})
	}
}

// Networks inside one IPv6 /48 share the per-address limit: 40 sign-ins
// from 40 different /64s of one /48 pass 30 times.
func TestIPv6SiteIsOneAddress(t *testing.T) {
	a := appBehindProxy(t, nil, nil)
	answers := atOnce(40, func(i int) *resp {
		from := http.Header{"X-Forwarded-For": {fmt.Sprintf("2001:db8:7:%x::1", i)}}
		return a.postWith(a.newClient(), "/login", url.Values{"phone": {apartPhone(i)}}, from)
	})
	if got := byStatus(answers); got[http.StatusTooManyRequests] != 10 {
		t.Errorf("answers %v, want 10 refusals of 40 from one /48", got)
	}
}

// A pump's refusals are counted each, and warned of once per limit every
// 10 s: the log does not grow by the pump's request count. The next
// warning says how many went unwarned since the last.
func TestRefusalsWarnedOncePerInterval(t *testing.T) {
	a := appBehindProxy(t, nil, func(o *handlers.Options) { o.SMSBudget = handlers.SMSBudget{Hour: 4, Day: 100} })
	pump := func(from, n int) {
		for i := range n {
			a.signupFrom(fmt.Sprintf("198.51.100.%d", from+i), apartPhone(from+i), false)
		}
	}
	pump(1, 30) // 2 sent, 28 refused
	a.clock.Add(11 * time.Second)
	pump(40, 5)
	warns := 0
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, `"level":"WARN"`) && strings.Contains(line, "refused") {
			warns++
		}
	}
	if warns != 2 || !strings.Contains(a.logs.String(), `"refused_unwarned_before":27`) {
		t.Errorf("%d warnings of refusals, want 2, the second saying 27 unwarned:\n%s", warns, grepLines(a.logs.String(), "refused"))
	}
	if m := a.metrics(); !strings.Contains(m, `lk_signin_limit_refusals_total{limit="sms_hour_signup"} 33`) {
		t.Errorf("refusals not each counted:\n%s", grepLines(m, "refusals"))
	}
}
