package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"lk/gateway"
)

const (
	codeTTL         = 10 * time.Minute
	tokenTTL        = 7 * 24 * time.Hour
	maxCodeAttempts = 5 // wrong entries before a code is void

	msgNoUser      = "Пользователь с таким номером не найден. Зарегистрируйтесь."
	msgWrongCode   = "Неверный код"
	msgUserExists  = "Пользователь с таким номером уже зарегистрирован"
	msgBadPhone    = "Некорректный номер телефона"
	msgFillFields  = "Пожалуйста, заполните все обязательные поля."
	msgForeignUser = "Нет доступа к данным этого клиента"
)

// normPhone reduces a phone to its 11 digits starting with 7; ok is false
// when that is impossible.
func normPhone(v string) (string, bool) {
	var b strings.Builder
	for _, r := range v {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	d := b.String()
	switch {
	case len(d) == 10 && d[0] == '9':
		d = "7" + d
	case len(d) == 11 && d[0] == '8':
		d = "7" + d[1:]
	}
	return d, len(d) == 11 && d[0] == '7'
}

// maskPhone keeps a phone's operator code and last two digits, for logs.
func maskPhone(d string) string {
	if len(d) != 11 {
		return "***"
	}
	return "+7 " + d[1:4] + " ***-**-" + d[9:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b)
}

func newGUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func codeHash(salt []byte, phone, code string) []byte {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(phone))
	h.Write([]byte{0})
	h.Write([]byte(code))
	return h.Sum(nil)
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func (s *Sandbox) clientByPhone(ctx context.Context, q querier, phone string) (gateway.PersonalInfo, error) {
	return clientBy(ctx, q, "phone", phone)
}

func (s *Sandbox) clientByGUID(ctx context.Context, q querier, guid string) (gateway.PersonalInfo, error) {
	return clientBy(ctx, q, "guid", guid)
}

// clientBy reads the client whose column (a constant name) is v.
func clientBy(ctx context.Context, q querier, column, v string) (gateway.PersonalInfo, error) {
	var p gateway.PersonalInfo
	err := q.QueryRowContext(ctx, `SELECT guid, phone, fio, email, birthdate, gender FROM clients WHERE `+column+` = ?`, v).
		Scan(&p.GUID, &p.Tel, &p.FIO, &p.Email, &p.Birthdate, &p.Gender)
	if errors.Is(err, sql.ErrNoRows) {
		return p, errNotFound
	}
	return p, err
}

// handleLogin2f serves auth/login2f: a known phone gets a new 4-digit code
// (replacing any earlier one), "sent" to the outbox.
func (s *Sandbox) handleLogin2f(w http.ResponseWriter, r *http.Request, in gateway.LoginRequest) {
	phone, valid := normPhone(in.Login)
	if !valid {
		fail(w, msgBadPhone)
		return
	}
	n, err := rand.Int(rand.Reader, big.NewInt(10000))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	code := fmt.Sprintf("%04d", n.Int64())
	now := s.now()
	err = s.inTx(r.Context(), func(tx *sql.Tx) error {
		if _, err := s.clientByPhone(r.Context(), tx, phone); err != nil {
			if errors.Is(err, errNotFound) {
				return refusal(msgNoUser)
			}
			return err
		}
		salt := make([]byte, 16)
		if _, err := rand.Read(salt); err != nil {
			return err
		}
		if _, err := tx.ExecContext(r.Context(), `INSERT INTO codes(phone, salt, hash, expires_at, attempts) VALUES(?, ?, ?, ?, 0)
			ON CONFLICT(phone) DO UPDATE SET salt = excluded.salt, hash = excluded.hash,
				expires_at = excluded.expires_at, attempts = 0`,
			phone, salt, codeHash(salt, phone, code), now.Add(codeTTL).Unix()); err != nil {
			return err
		}
		_, err := tx.ExecContext(r.Context(), `INSERT INTO outbox(phone, code, sent_at) VALUES(?, ?, ?)
			ON CONFLICT(phone) DO UPDATE SET code = excluded.code, sent_at = excluded.sent_at`,
			phone, code, now.UTC().Format(time.RFC3339))
		return err
	})
	if err == nil {
		// Neither the code nor the whole phone goes to the log, even here:
		// a sandbox log is copied and shared like any other, and the code
		// page already says where the code is.
		s.log.Info("sandbox: SMS code sent", "phone", maskPhone(phone),
			"note", "sandbox only: no SMS is sent; the code is at GET /sandbox/sms/{phone digits}")
	}
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Код отправлен"})
}

// handleLoginConfirm serves auth/loginConfirm: a right, unexpired, unused
// code gives a token valid for 7 days.
func (s *Sandbox) handleLoginConfirm(w http.ResponseWriter, r *http.Request, in gateway.LoginConfirmRequest) {
	phone, _ := normPhone(in.Login)
	now := s.now()
	var token string
	var wrong bool
	err := s.inTx(r.Context(), func(tx *sql.Tx) error {
		ctx := r.Context()
		var salt, hash []byte
		var exp int64
		var attempts int
		err := tx.QueryRowContext(ctx, `SELECT salt, hash, expires_at, attempts FROM codes WHERE phone = ?`, phone).
			Scan(&salt, &hash, &exp, &attempts)
		if errors.Is(err, sql.ErrNoRows) {
			wrong = true
			return nil
		}
		if err != nil {
			return err
		}
		if now.Unix() >= exp || attempts >= maxCodeAttempts {
			_, err := tx.ExecContext(ctx, `DELETE FROM codes WHERE phone = ?`, phone)
			wrong = true
			return err
		}
		if subtle.ConstantTimeCompare(codeHash(salt, phone, strings.TrimSpace(in.VerifyCode)), hash) != 1 {
			_, err := tx.ExecContext(ctx, `UPDATE codes SET attempts = attempts + 1 WHERE phone = ?`, phone)
			wrong = true
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM codes WHERE phone = ?`, phone); err != nil {
			return err
		}
		c, err := s.clientByPhone(ctx, tx, phone)
		if err != nil {
			return err
		}
		token = randomHex(32)
		_, err = tx.ExecContext(ctx, `INSERT INTO tokens(hash, client, expires_at) VALUES(?, ?, ?)`,
			tokenHash(token), c.GUID, now.Add(tokenTTL).Unix())
		return err
	})
	switch {
	case err != nil:
		s.internal(w, r, err)
	case wrong:
		writeJSON(w, http.StatusOK, gateway.LoginConfirmAnswer{Answer: gateway.Answer{ErrorMessage: msgWrongCode}})
	default:
		writeJSON(w, http.StatusOK, gateway.LoginConfirmAnswer{Answer: gateway.Answer{Success: true}, Token: token})
	}
}

// bearer is the client guid of the request's bearer token, if valid.
func (s *Sandbox) bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", false
	}
	var guid string
	err := s.db.QueryRowContext(r.Context(), `SELECT client FROM tokens WHERE hash = ? AND expires_at > ?`,
		tokenHash(strings.TrimSpace(token)), s.now().Unix()).Scan(&guid)
	return guid, err == nil
}

func (s *Sandbox) handleGetClientInfo(w http.ResponseWriter, r *http.Request) {
	guid, valid := s.bearer(r)
	if !valid {
		writeJSON(w, http.StatusUnauthorized, gateway.ClientInfoAnswer{HasErrors: true, ResponseDescription: msgSession})
		return
	}
	p, err := s.clientByGUID(r.Context(), s.db, guid)
	if errors.Is(err, errNotFound) {
		writeJSON(w, http.StatusUnauthorized, gateway.ClientInfoAnswer{HasErrors: true, ResponseDescription: msgSession})
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, gateway.ClientInfoAnswer{ClientInfo: &gateway.ClientInfo{PersonalInfo: p}})
}

// handleClientEditInfo serves auth/clientEditInfo: the token's own client
// may change name, gender and birth date.
func (s *Sandbox) handleClientEditInfo(w http.ResponseWriter, r *http.Request) {
	guid, valid := s.bearer(r)
	if !valid {
		writeJSON(w, http.StatusUnauthorized, gateway.Answer{ErrorMessage: msgSession})
		return
	}
	var in gateway.ProfileUpdate
	if !decode(w, r, &in) {
		return
	}
	if in.UserID != guid {
		writeJSON(w, http.StatusForbidden, gateway.Answer{ErrorMessage: msgForeignUser})
		return
	}
	first, last, middle := strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName), strings.TrimSpace(in.MiddleName)
	gender := strings.ToUpper(strings.TrimSpace(in.Gender))
	if first == "" || last == "" || gender == "" || strings.TrimSpace(in.Birthday) == "" {
		fail(w, msgFillFields)
		return
	}
	if gender != "MALE" && gender != "FEMALE" {
		fail(w, "Некорректно указан пол")
		return
	}
	birth, err := time.ParseInLocation(gateway.LayoutDate, strings.TrimSpace(in.Birthday), s.loc)
	if err != nil || birth.Year() < 1900 || birth.After(s.nowLocal()) {
		fail(w, "Дата рождения должна быть в формате дд.мм.гггг")
		return
	}
	fio := strings.Join(strings.Fields(last+" "+first+" "+middle), " ")
	err = s.inTx(r.Context(), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(r.Context(), `UPDATE clients SET fio = ?, gender = ?, birthdate = ? WHERE guid = ?`,
			fio, gender, birth.Format(gateway.LayoutBirth), guid)
		return err
	})
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Данные сохранены"})
}

// handleRegistration serves reg/registration: a new phone becomes a client
// with a new guid and a sample set of orders; it signs in with login2f.
func (s *Sandbox) handleRegistration(w http.ResponseWriter, r *http.Request, in gateway.Registration) {
	first, last := strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName)
	if strings.TrimSpace(in.PhoneNumber) == "" || first == "" || last == "" {
		fail(w, msgFillFields)
		return
	}
	phone, valid := normPhone(in.PhoneNumber)
	if !valid {
		fail(w, msgBadPhone)
		return
	}
	guid := newGUID()
	err := s.inTx(r.Context(), func(tx *sql.Tx) error {
		ctx := r.Context()
		if _, err := s.clientByPhone(ctx, tx, phone); err == nil {
			return refusal(msgUserExists)
		} else if !errors.Is(err, errNotFound) {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO clients(guid, phone, fio, created_at) VALUES(?, ?, ?, ?)`,
			guid, phone, last+" "+first, s.now().UTC().Format(time.RFC3339)); err != nil {
			return err
		}
		return s.seedSample(ctx, tx, guid, gateway.Guest{Family: last, Name: first})
	})
	if err == nil {
		s.log.Info("sandbox: client registered", "phone", maskPhone(phone), "guid", guid)
	}
	s.answerTx(w, r, err, gateway.Answer{Success: true, Message: "Регистрация прошла успешно"})
}

func (s *Sandbox) lastCode(ctx context.Context, phone string) (code, sentAt string, ok bool) {
	phone, _ = normPhone(phone)
	err := s.db.QueryRowContext(ctx, `SELECT code, sent_at FROM outbox WHERE phone = ?`, phone).Scan(&code, &sentAt)
	return code, sentAt, err == nil
}

// handleOutbox serves GET /sandbox/sms/{digits}.
func (s *Sandbox) handleOutbox(w http.ResponseWriter, r *http.Request) {
	phone, _ := normPhone(r.PathValue("digits"))
	code, sentAt, found := s.lastCode(r.Context(), phone)
	if !found {
		writeJSON(w, http.StatusNotFound, map[string]any{"phone": phone, "error": "Код на этот номер не отправлялся"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"phone": phone, "code": code, "sentAt": sentAt})
}
