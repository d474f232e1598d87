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
func (a *app) providerCalls() int { return a.sb.Calls("reg/registration") + a.sb.Calls("auth/login2f") }

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
			if reached.Load() != 20 || refused.Load() != 1200-20 || a.sb.Calls("auth/login2f") > 20 {
				t.Errorf("reached %d, refused %d, provider asked %d times: want 20 an hour",
					reached.Load(), refused.Load(), a.sb.Calls("auth/login2f"))
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
// sign-ups from 40 addresses to 40 unrelated numbers, exactly the hour's
// budget reach the provider; a warning reaches the log once at 80 %, the
// metrics show the budget used and the refusals; the day's budget holds
// across hours.
func TestSMSBudgetHoldsUnderABurst(t *testing.T) {
	for name, limiter := range map[string]func(t *testing.T) store.Limiter{
		"memory": func(*testing.T) store.Limiter { return nil },
		"redis":  func(t *testing.T) store.Limiter { return startRedis(t).Open() },
	} {
		t.Run(name, func(t *testing.T) {
			a := appBehindProxy(t, limiter(t), func(o *handlers.Options) { o.SMSBudget = handlers.SMSBudget{Hour: 10, Day: 15} })
			answers := atOnce(40, func(i int) *resp { return a.signupFrom(fmt.Sprintf("198.51.100.%d", i+1), apartPhone(i), i%2 == 0) })
			if got := byStatus(answers); got[http.StatusTooManyRequests] != 30 || a.sb.Calls("auth/login2f") != 10 {
				t.Fatalf("answers %v, codes sent %d: want 10 sent, 30 refused", got, a.sb.Calls("auth/login2f"))
			}
			for _, r := range answers {
				if r.StatusCode == http.StatusTooManyRequests && (r.Header.Get("Retry-After") == "" || !strings.Contains(r.body, "Сейчас слишком много запросов кода. Попробуйте позже.")) {
					t.Fatalf("a refusal: %q %.300s", r.Header.Get("Retry-After"), r.body)
				}
			}
			if n := strings.Count(a.logs.String(), `"SMS code budget 80 % used","budget":"sms_hour"`); n != 1 {
				t.Errorf("%d warnings of the hour's budget at 80 %%, want 1:\n%s", n, a.logs.String())
			}
			m := a.metrics()
			// The gauge is as of a late code of the burst, whichever wrote last.
			if !regexp.MustCompile(`lk_sms_budget_used_ratio\{budget="sms_hour"\} (1|0\.[89])\n`).MatchString(m) ||
				!strings.Contains(m, `lk_signin_limit_refusals_total{limit="sms_hour"} 30`) {
				t.Errorf("metrics:\n%s", m)
			}
			a.clock.Add(time.Hour)
			answers = atOnce(10, func(i int) *resp { return a.signupFrom(fmt.Sprintf("203.0.113.%d", i+1), apartPhone(50+i), false) })
			if got := byStatus(answers); got[http.StatusTooManyRequests] != 5 || a.sb.Calls("auth/login2f") != 15 {
				t.Errorf("next hour: answers %v, codes sent %d: want the day's 15 in all", got, a.sb.Calls("auth/login2f"))
			}
			if !strings.Contains(a.metrics(), `lk_signin_limit_refusals_total{limit="sms_day"} 5`) {
				t.Error("the day's refusals not counted")
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
