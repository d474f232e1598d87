package handlers

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/mail"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"lk/gateway"
	"lk/handlers/web"
	"lk/store"
	"lk/views"
)

const refundCommentMax = 2000

const (
	refundMaxFiles    = store.RefundFilesPerKey
	refundMaxFileSize = 10 << 20
	refundMaxTotal    = store.RefundBytesPerKey
	refundFilesTTL    = time.Hour
)

type refundInput struct {
	form     gateway.RefundForm // contact and reason as typed
	tickets  []string           // the chosen ticket ids, when the kind refunds by tickets
	files    []store.RefundFile // documents of this request, not yet kept
	fileErrs views.Errors       // files refused while reading
	tooMany  bool               // more than refundMaxFiles in this request
	remove   string             // a kept file's id: its 'Удалить' was pressed
	// skipFiles: the body is read for the fields and the token only.
	skipFiles bool
	bodySize  int64 // the body's Content-Length, -1 when unknown
	mode      gateway.RefundKind
}

// A multipart body is streamed part by part and nothing is written to disk:
// a file is read up to 10 MB, an 11th not at all, the body within the
// route's 25 MB. The values are put back on the request for the token.
func readRefundInput(c *echo.Context, files bool) (refundInput, error) {
	r := c.Request()
	in := refundInput{skipFiles: !files, bodySize: r.ContentLength}
	body := &overLimit{ReadCloser: r.Body}
	r.Body = body
	values := url.Values{}
	mr, err := r.MultipartReader()
	switch {
	case errors.Is(err, http.ErrNotMultipart): // an island without files may post a plain form
		if err := r.ParseForm(); err != nil {
			return in, bodyError(err)
		}
		values = r.PostForm
	case err != nil:
		return in, bodyError(err)
	default:
		if err := in.readParts(mr, values); err != nil || body.hit {
			return in, cmp.Or(err, error(web.ErrTooLarge))
		}
		r.Form, r.PostForm, r.MultipartForm = values, values, &multipart.Form{Value: values}
	}
	text := func(name string) string { return strings.TrimSpace(values.Get(name)) }
	in.form = gateway.RefundForm{Surname: text("surname"), Name: text("name"), SecondName: text("secondName"),
		Email: text("email"), Phone: text("phone"), Comment: text("comment")}
	in.tickets = slices.Compact(slices.Sorted(slices.Values(values["tickets"])))
	in.remove = values.Get("remove")
	return in, nil
}

func (in *refundInput) readParts(mr *multipart.Reader, values url.Values) error {
	for n := 0; ; n++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return in.unreadable(err)
		}
		if n > 200 { // no form of ours has that many fields
			return web.ErrTooLarge
		}
		if p.FormName() == "documents" {
			if err := in.readFile(p); err != nil {
				return in.unreadable(err)
			}
			continue
		}
		b, err := io.ReadAll(io.LimitReader(p, web.FormLimit+1))
		switch {
		case err != nil:
			return in.unreadable(err)
		case len(b) > web.FormLimit:
			return web.ErrTooLarge
		case p.FileName() == "": // a file under another name is not ours to keep
			values.Add(p.FormName(), string(b))
		}
	}
}

// Over the route's limit is 413; anything else keeps what was read.
func (in *refundInput) unreadable(err error) error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return web.ErrTooLarge
	}
	in.fileErrs.Add("documents", msgFilesUnreadable)
	return nil
}

func (in *refundInput) readFile(p *multipart.Part) error {
	name := cleanFileName(p.FileName())
	switch {
	case p.FileName() == "": // 'no file chosen' is an empty part without a name
		_, err := io.Copy(io.Discard, p)
		return err
	case in.skipFiles:
		_, err := io.Copy(io.Discard, p)
		return err
	case len(in.files) >= refundMaxFiles:
		in.tooMany = true
		_, err := io.Copy(io.Discard, p)
		return err
	}
	// One buffer the size the body allows: the copies a growing one leaves
	// behind would be most of what an upload costs.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(in.bodySize, 512), refundMaxFileSize+1)))
	_, err := buf.ReadFrom(io.LimitReader(p, refundMaxFileSize+1))
	data := buf.Bytes()
	if err == nil {
		_, err = io.Copy(io.Discard, p) // the rest of a file too big
	}
	switch {
	case err != nil:
		return err
	case len(data) > refundMaxFileSize:
		in.fileErrs.Add("documents", fmt.Sprintf(msgFileTooBig, name))
	case len(data) == 0:
		in.fileErrs.Add("documents", fmt.Sprintf(msgFileEmpty, name))
	default:
		sum := sha256.Sum256(data)
		in.files = append(in.files, store.RefundFile{Name: name, Size: len(data), Sum: hex.EncodeToString(sum[:]), Data: data})
	}
	return nil
}

// A browser's file name is never used as a path.
func cleanFileName(name string) string {
	name = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) || r == '/' || r == '\\' {
			return -1
		}
		return r
	}, path.Base(strings.ReplaceAll(name, `\`, "/")))
	for utf8.RuneCountInString(name) > 120 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if strings.Trim(name, ". ") == "" {
		return "document"
	}
	return name
}

// overLimit notes the route's limit however the multipart reader words it.
type overLimit struct {
	io.ReadCloser
	hit bool
}

func (o *overLimit) Read(p []byte) (int, error) {
	n, err := o.ReadCloser.Read(p)
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		o.hit = true
	}
	return n, err
}

func bodyError(err error) error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return web.ErrTooLarge
	}
	return &web.Error{Status: http.StatusBadRequest, Title: "Недопустимый запрос", Message: web.MsgMethod}
}

func (in *refundInput) check(o order, kept []store.RefundFile) views.Errors {
	var e views.Errors
	if o.kind.info().byTickets {
		switch {
		case len(in.tickets) == 0:
			e.Add("tickets", msgRefundTickets)
		case slices.ContainsFunc(in.tickets, func(id string) bool { return !o.paidTicket(id) }):
			e.Add("tickets", msgRefundForeign)
		}
	}
	long := func(s string, n int) bool { return utf8.RuneCountInString(s) > n }
	if f := in.form; f.Surname == "" || long(f.Surname, 100) {
		e.Add("surname", msgRefundSurname)
	}
	if f := in.form; f.Name == "" || long(f.Name, 100) {
		e.Add("name", msgRefundName)
	}
	if long(in.form.SecondName, 100) {
		e.Add("secondName", msgRefundSecondName)
	}
	if a, err := mail.ParseAddress(in.form.Email); in.form.Email != "" && (err != nil || a.Address != in.form.Email || long(a.Address, 100)) {
		e.Add("email", msgRefundEmail)
	}
	if _, ok := parsePhone(in.form.Phone); !ok {
		e.Add("phone", msgRefundPhone)
	}
	if in.mode == gateway.RefundModeration && (in.form.Comment == "" || long(in.form.Comment, refundCommentMax)) {
		e.Add("comment", msgRefundReason)
	}
	e = append(e, in.fileErrs...)
	docs := in.documents(kept)
	size := 0
	for _, f := range docs {
		size += f.Size
	}
	switch {
	case in.tooMany || len(docs) > refundMaxFiles:
		e.Add("documents", msgFilesTooMany)
	case size > refundMaxTotal:
		e.Add("documents", msgFilesTooMuch)
	case in.mode == gateway.RefundModeration && len(docs) == 0 && len(in.fileErrs) == 0:
		e.Add("documents", msgRefundDocuments)
	}
	return e
}

// A kept file attached again is one document, whatever its name.
func (in *refundInput) dropKept(kept []store.RefundFile) {
	seen := slices.Clone(kept)
	files := in.files[:0]
	for _, f := range in.files {
		if !slices.ContainsFunc(seen, func(g store.RefundFile) bool { return g.Sum == f.Sum }) {
			files = append(files, f)
			seen = append(seen, f)
		}
	}
	in.files = files
}

func (in *refundInput) documents(kept []store.RefundFile) []store.RefundFile {
	return slices.Concat(kept, in.files)
}

func (in *refundInput) request(o order, kept []store.RefundFile) refundRequest {
	f := in.form
	f.OrderID = o.id
	if d, ok := parsePhone(f.Phone); ok {
		f.Phone = d
	}
	if in.mode != gateway.RefundModeration {
		f.Comment = ""
	}
	docs := []gateway.File{}
	if in.mode != gateway.RefundModeration { // a form without documents sends none
		kept, in.files = nil, nil
	}
	for _, d := range in.documents(kept) {
		ext := strings.TrimPrefix(path.Ext(d.Name), ".")
		docs = append(docs, gateway.File{FileName: d.Name, FileExtension: ext, Data: d.Data})
	}
	return refundRequest{Form: f, Documents: docs, Tickets: in.tickets}
}

// More than 10 files are not kept. Kept files count against their customer's
// share and the server's room; a full server is said once, not "too much".
func (s *Server) keepRefundFiles(ctx context.Context, sess *web.Session, key string, in *refundInput) views.Errors {
	var e views.Errors
	if in.tooMany {
		return nil
	}
	for _, f := range in.files {
		f.ID = web.RandomID()
		_, err := s.stores.files.Put(ctx, sess.GUID, key, f, refundFilesTTL)
		switch {
		case errors.Is(err, store.ErrRefundStoreFull):
			s.ops.keptRefused.Inc()
			if noRoom := (views.FieldError{Field: "documents", Message: msgFilesNoRoom}); !slices.Contains(e, noRoom) {
				e = append(e, noRoom)
			}
		case errors.Is(err, store.ErrRefundFilesFull):
			e.Add("documents", fmt.Sprintf(msgFileNotKept, f.Name))
		case err != nil:
			s.log.ErrorContext(ctx, "refund file not kept", "err", err)
			e.Add("documents", fmt.Sprintf(msgFileNotKept, f.Name))
		}
	}
	in.files = nil
	return e
}

func refundFilesKey(sess *web.Session, o order) string {
	return sess.ID + "/" + string(o.kind.info().id) + "/" + o.id
}

func (s *Server) newRefundInput(o order, info gateway.PersonalInfo, sess *web.Session) refundInput {
	in := refundInput{form: refundContact(info, sess, o.id), mode: s.refundMode(o)}
	in.form.Name = cmp.Or(in.form.Name, sess.Name)
	in.form.Phone = views.Phone(in.form.Phone)
	for _, t := range o.tickets {
		if t.paid {
			in.tickets = append(in.tickets, t.id)
		}
	}
	if len(in.tickets) > 1 {
		in.tickets = nil
	}
	return in
}

func (in *refundInput) view(o order, kept []store.RefundFile) views.RefundForm {
	f := views.RefundForm{Surname: in.form.Surname, Name: in.form.Name, SecondName: in.form.SecondName, Email: in.form.Email,
		Phone: in.form.Phone, Comment: in.form.Comment, Moderation: in.mode == gateway.RefundModeration}
	for _, t := range o.tickets {
		f.Tickets = append(f.Tickets, views.RefundTicket{
			ID: t.id, Label: t.label, Status: t.status, Choosable: t.paid,
			Chosen: t.paid && slices.Contains(in.tickets, t.id),
		})
	}
	for _, k := range kept {
		f.Files = append(f.Files, views.RefundFile{ID: k.ID, Name: k.Name, Size: fileSize(k.Size)})
	}
	return f
}

func (in *refundInput) amountNote(o order) string {
	if !o.kind.info().byTickets {
		return "К возврату: " + views.Money(o.amount) + ". " + msgMoneyBack
	}
	var chosen, paid float64
	for _, t := range o.tickets {
		if t.paid {
			paid += t.price
			if slices.Contains(in.tickets, t.id) {
				chosen += t.price
			}
		}
	}
	if chosen == 0 {
		return "К возврату: стоимость выбранных билетов, всего оплачено " + views.Money(paid) + ". " + msgMoneyBack
	}
	return "К возврату: " + views.Money(chosen) + " за выбранные билеты. " + msgMoneyBack
}

func fileSize(n int) string {
	if n < 1<<20 {
		return strconv.Itoa(max(1, (n+1023)>>10)) + " КБ"
	}
	return strings.Replace(strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64), ".", ",", 1) + " МБ"
}

// refunding splits the chosen tickets: those with a refund registered, the rest.
func (o order) refunding(chosen []string) (numbers, rest []string) {
	for _, id := range chosen {
		if i := slices.IndexFunc(o.tickets, func(t ticket) bool { return t.id == id }); i >= 0 && o.tickets[i].refunding {
			numbers = append(numbers, o.tickets[i].number)
		} else {
			rest = append(rest, id)
		}
	}
	return numbers, rest
}

func (o order) paidTicket(id string) bool {
	return slices.ContainsFunc(o.tickets, func(t ticket) bool { return t.id == id && t.paid })
}

func refundContact(info gateway.PersonalInfo, sess *web.Session, orderID string) gateway.RefundForm {
	f := gateway.RefundForm{Email: info.Email, Phone: cmp.Or(info.Tel, sess.Phone), OrderID: orderID}
	f.Surname, f.Name, f.SecondName = splitFIO(info.FIO, sess.Name)
	return f
}

// The refund's mode comes from the server's clock, never the form.
func (s *Server) refundMode(o order) gateway.RefundKind {
	return gateway.RefundMode(o.ref.Start, s.now())
}
