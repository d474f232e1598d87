package views

// SmsProps are the SMS-code island's props: it takes over the form given by
// Form and posts the same fields to the same URLs, asking for JSON.
type SmsProps struct {
	Mode        string `json:"mode"` // "login" or "signup"
	Form        string `json:"form"` // CSS selector of the form it enhances
	RequestURL  string `json:"requestUrl"`
	ConfirmURL  string `json:"confirmUrl"`
	ResendURL   string `json:"resendUrl"`
	Home        string `json:"home"`
	SandboxHint string `json:"sandboxHint,omitempty"`
}

// Manifest keys of the islands and enhancements pages use.
const (
	SmsIsland       = "sms-code/SmsCode.tsx"
	PhoneEnhance    = "enhance/phone.ts"
	BirthdayEnhance = "enhance/birthday.ts"
)

// LoginForm is the phone form of /login.
type LoginForm struct {
	Phone  string
	Title  string // of the error summary: "Ой!"
	Errors Errors
	Props  SmsProps
	Notice string // why the customer is here: a form waits for the sign-in
}

// SignupForm is the form of /signup.
type SignupForm struct {
	Phone     string
	FirstName string
	LastName  string
	Title     string
	Errors    Errors
	Props     SmsProps
}

// CodeForm is the code step.
type CodeForm struct {
	Masked      string // +7 (900) ***-**-00
	Mode        string // "login" or "signup": where "change the number" leads
	Code        string
	Errors      Errors
	Notice      string // "Новый код отправлен."
	ResendAfter int    // seconds until a new code may be asked for; 0 = now
	SandboxURL  string // where the sandbox's outbox shows the code, in sandbox mode
	Confirmed   bool   // the code was right, the profile did not load: only "try again" is left
}
