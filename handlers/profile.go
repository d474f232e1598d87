package handlers

import (
	"cmp"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/views"
)

// Texts of the profile form (SPEC §5).
const (
	msgNameTooLong    = "Не больше 50 символов"
	msgGenderEmpty    = "Выберите пол"
	msgBirthdayEmpty  = "Введите дату рождения"
	msgBirthdayFormat = "Введите дату рождения в формате дд.мм.гггг, например 15.03.1985"
	msgBirthdayNoDate = "Такой даты нет: проверьте день и месяц"
	msgBirthdayFuture = "Дата рождения должна быть в прошлом"
	msgBirthdayYear   = "Проверьте год рождения"
	msgProfileSaved   = "Не удалось сохранить данные. Попробуйте позже."
)

func (s *Server) profilePage(c *echo.Context, invalid bool) views.Page {
	p := s.page(c, "Личные данные", "Изменение личных данных.")
	p.Nav = views.NavHome
	p.Islands = []string{views.BirthdayIsland}
	p.Invalid = invalid
	return p
}

// profileForm shows the personal data form filled from auth/getClientInfo.
func (s *Server) profileForm(c *echo.Context) error {
	sess := session(c)
	info, err := s.gw.ClientInfo(c.Request().Context(), sess.Token)
	if err != nil {
		if msg, out := profileRefused(err); out {
			s.endSession(c, sess)
			return s.signedOutWith(c, msg)
		}
		return &httpError{http.StatusServiceUnavailable, msgServerTitle, msgProfileFailed}
	}
	f := views.ProfileForm{Gender: info.Gender, Phone: views.Phone(cmp.Or(info.Tel, sess.Phone))}
	parts := strings.Fields(info.FIO)
	if len(parts) > 0 {
		f.LastName = parts[0]
	}
	if len(parts) > 1 {
		f.FirstName = parts[1]
	}
	if len(parts) > 2 {
		f.MiddleName = strings.Join(parts[2:], " ")
	}
	if b, err := gateway.ParseBirthdate(info.Birthdate, s.loc); err == nil && !b.IsZero() {
		f.Birthday = b.Format(gateway.LayoutDate)
	}
	return render(c, http.StatusOK, views.ProfilePage(s.profilePage(c, false), f))
}

// profileSubmit checks the form on the server (SPEC §5) and saves it with
// auth/clientEditInfo; on success the greeting takes the new first name.
func (s *Server) profileSubmit(c *echo.Context) error {
	sess := session(c)
	f := views.ProfileForm{
		LastName:   strings.TrimSpace(c.FormValue("lastName")),
		FirstName:  strings.TrimSpace(c.FormValue("firstName")),
		MiddleName: strings.TrimSpace(c.FormValue("middleName")),
		Gender:     c.FormValue("gender"),
		Birthday:   strings.TrimSpace(c.FormValue("birthday")),
		Phone:      views.Phone(sess.Phone),
	}
	show := func(status int) error {
		return render(c, status, views.ProfilePage(s.profilePage(c, true), f))
	}
	checkName(&f.Errors, "lastName", f.LastName, msgLastNameEmpty)
	checkName(&f.Errors, "firstName", f.FirstName, msgFirstNameEmpty)
	checkName(&f.Errors, "middleName", f.MiddleName, "")
	if f.Gender != "MALE" && f.Gender != "FEMALE" {
		f.Gender = ""
		f.Errors.Add("gender", msgGenderEmpty)
	}
	birthday, msg := parseBirthday(f.Birthday, s.now(), s.loc)
	if msg != "" {
		f.Errors.Add("birthday", msg)
	} else {
		f.Birthday = birthday
	}
	if len(f.Errors) > 0 {
		return show(http.StatusUnprocessableEntity)
	}
	err := s.gw.EditClientInfo(c.Request().Context(), sess.Token, gateway.ProfileUpdate{
		FirstName: f.FirstName, LastName: f.LastName, MiddleName: f.MiddleName, Gender: f.Gender,
		Birthday: birthday, PhoneNumber: sess.Phone, UserID: sess.GUID,
	})
	if err != nil {
		var pe *gateway.ProviderError
		switch {
		case errors.Is(err, gateway.ErrUnauthorized):
			s.endSession(c, sess)
			return s.signedOutWith(c, msgSessionOver)
		case errors.As(err, &pe) && pe.Message != "":
			f.Errors.Add("", pe.Message) // the provider's errorMessage, in red
			if pe.Status >= 500 {
				return show(http.StatusBadGateway)
			}
			return show(http.StatusUnprocessableEntity)
		default:
			s.log.Warn("profile not saved", "err", err)
			f.Errors.Add("", msgProfileSaved)
			return show(http.StatusServiceUnavailable)
		}
	}
	sess.Name = f.FirstName
	if err := s.sessions.Write(c.Response(), sess); err != nil {
		return err
	}
	return seeOther(c, views.PathHome)
}

func checkName(errs *views.Errors, field, v, emptyMsg string) {
	switch {
	case v == "" && emptyMsg != "":
		errs.Add(field, emptyMsg)
	case utf8.RuneCountInString(v) > maxNameLen:
		errs.Add(field, msgNameTooLong)
	}
}

// parseBirthday checks a birth date typed as дд.мм.гггг (SPEC §5: digits and
// dots only, at most 10 characters) and gives it back in that form. Eight
// bare digits are taken too: that is what the field holds when the script
// that puts in the dots did not run. The date must exist and be in the past.
func parseBirthday(raw string, now time.Time, loc *time.Location) (string, string) {
	if raw == "" {
		return "", msgBirthdayEmpty
	}
	if len(raw) > 10 || strings.Trim(raw, "0123456789.") != "" {
		return "", msgBirthdayFormat
	}
	if len(raw) == 8 && !strings.Contains(raw, ".") {
		raw = raw[:2] + "." + raw[2:4] + "." + raw[4:]
	}
	if len(raw) != 10 || raw[2] != '.' || raw[5] != '.' || strings.Count(raw, ".") != 2 {
		return "", msgBirthdayFormat
	}
	t, err := time.ParseInLocation(gateway.LayoutDate, raw, loc)
	if err != nil {
		return "", msgBirthdayNoDate
	}
	switch {
	case t.Year() < 1900:
		return "", msgBirthdayYear
	case !t.Before(gateway.Day(now, loc)):
		return "", msgBirthdayFuture
	}
	return raw, ""
}
