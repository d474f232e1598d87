package handlers

import (
	"cmp"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/views"
)

func (s *Server) profilePage(c *echo.Context, invalid bool) views.Page {
	p := s.page(c, "Личные данные", "Изменение личных данных.")
	p.Nav = views.NavHome
	p.Islands = []string{views.BirthdayIsland}
	p.Invalid = invalid
	return p
}

func (s *Server) profileForm(c *echo.Context) error {
	sess := web.SessionOf(c)
	info, err := s.account.ClientInfo(c.Request().Context(), sess.Token)
	if err != nil {
		if msg, out := profileRefused(err); out {
			s.endSession(c, sess)
			return s.signedOutWith(c, msg)
		}
		return &web.Error{Status: http.StatusServiceUnavailable, Title: web.MsgServerTitle, Message: msgProfileFailed}
	}
	f := views.ProfileForm{Gender: info.Gender, Phone: views.Phone(cmp.Or(info.Tel, sess.Phone))}
	f.LastName, f.FirstName, f.MiddleName = splitFIO(info.FIO, sess.Name)
	s.heard(sess, info)
	s.keepName(c, sess, firstName(info.FIO))
	if b, err := gateway.ParseBirthdate(info.Birthdate, s.loc); err == nil && !b.IsZero() {
		f.Birthday = b.Format(gateway.LayoutDate)
	}
	if k := s.keptFor(c); k != nil {
		restoreProfile(&f, k)
	}
	f.Owner = s.newOwnerMark(sess)
	return s.render(c, http.StatusOK, views.ProfilePage(s.profilePage(c, false), f))
}

func (s *Server) profileSubmit(c *echo.Context) error {
	sess := web.SessionOf(c)
	f := views.ProfileForm{
		LastName:   strings.TrimSpace(c.FormValue("lastName")),
		FirstName:  strings.TrimSpace(c.FormValue("firstName")),
		MiddleName: strings.TrimSpace(c.FormValue("middleName")),
		Gender:     c.FormValue("gender"),
		Birthday:   strings.TrimSpace(c.FormValue("birthday")),
		Phone:      views.Phone(sess.Phone),
		Owner:      s.newOwnerMark(sess),
	}
	show := func(status int) error {
		return s.render(c, status, views.ProfilePage(s.profilePage(c, true), f))
	}
	checkName(&f.Errors, "lastName", &f.LastName, msgLastNameEmpty, msgNameTooLong)
	checkName(&f.Errors, "firstName", &f.FirstName, msgFirstNameEmpty, msgNameTooLong)
	checkName(&f.Errors, "middleName", &f.MiddleName, "", msgNameTooLong)
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
	err := s.account.EditClientInfo(c.Request().Context(), sess.Token, gateway.ProfileUpdate{
		FirstName: f.FirstName, LastName: f.LastName, MiddleName: f.MiddleName, Gender: f.Gender,
		Birthday: birthday, PhoneNumber: sess.Phone, UserID: sess.GUID,
	})
	s.wrote(c.Request().Context(), sess.GUID)
	if err != nil {
		// The provider's refusal or failure is no fault of the answers: its
		// text in red above the form, never among the answers to check.
		fail := explain(err, web.MsgRequestFailed, web.MsgRequestFailed)
		if fail.signOut {
			s.endSession(c, sess)
			return s.signedOutWith(c, fail.message)
		}
		s.log.WarnContext(c.Request().Context(), "profile not saved", "refused", fail.refused, "err", err)
		f.Error = fail.message
		if fail.refused {
			return show(fail.status)
		}
		return show(http.StatusServiceUnavailable)
	}
	sess.Name = f.FirstName
	s.shell.names.put(sess.GUID, f.FirstName, s.now())
	if err := s.sessions.Write(c.Response(), sess); err != nil {
		return err
	}
	if err := s.sessions.WriteNotice(c.Response(), msgProfileDone); err != nil {
		return err
	}
	return web.SeeOther(c, views.PathHome)
}

// parseBirthday checks a birth date typed as дд.мм.гггг (digits and
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
