package sandbox

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"lk/gateway"
)

// StoredDocument is a supporting document as the sandbox received it.
type StoredDocument struct {
	Name      string `json:"name"`
	Extension string `json:"extension"`
	Size      int    `json:"size"`   // bytes after base64 decoding
	SHA256    string `json:"sha256"` // of the decoded bytes, hex
}

// StoredRefund is a refund request the sandbox received, for tests to assert
// what the provider got.
type StoredRefund struct {
	ID         int64                   `json:"id"`
	Path       string                  `json:"path"`    // "aqua/registerRefund1C", "Rent/registerRefund", ...
	OrderID    string                  `json:"orderId"` // returnOrderId, the rent id or the hotel orderId
	ReceivedAt time.Time               `json:"receivedAt"`
	Form       *gateway.RefundForm     `json:"form,omitempty"`
	Documents  []StoredDocument        `json:"documents"`
	Products   []gateway.RefundProduct `json:"products,omitempty"` // water park only
	// Body is the request as received, with file contents left out.
	Body json.RawMessage `json:"body"`
}

func (s *Sandbox) refunds(ctx context.Context) ([]StoredRefund, error) {
	return scanRows(ctx, s.db, func(rows *sql.Rows) (StoredRefund, error) {
		var r StoredRefund
		var at, form, docs, products, body string
		if err := rows.Scan(&r.ID, &r.Path, &r.OrderID, &at, &form, &docs, &products, &body); err != nil {
			return r, err
		}
		r.ReceivedAt, _ = time.Parse(time.RFC3339Nano, at)
		if form != "null" {
			r.Form = new(gateway.RefundForm)
			_ = json.Unmarshal([]byte(form), r.Form)
		}
		_ = json.Unmarshal([]byte(docs), &r.Documents)
		_ = json.Unmarshal([]byte(products), &r.Products)
		r.Body = json.RawMessage(body)
		return r, nil
	}, `SELECT id, path, order_id, received_at, form, documents, products, body FROM refunds ORDER BY id`)
}

var errBadFile = errors.New("bad file")

// decodeDocs decodes the base64 documents; the error names the bad file.
// refundDocs decodes a refund's documents; false when it has answered that
// they could not be read.
func refundDocs(w http.ResponseWriter, files []gateway.File) ([]StoredDocument, bool) {
	docs, err := decodeDocs(files)
	if err != nil {
		fail(w, "Ошибка загрузки файлов: "+strings.TrimPrefix(err.Error(), errBadFile.Error()+": "))
		return nil, false
	}
	return docs, true
}

// refundable refuses a refund of an order refunded already, of a live one
// that cannot be canceled, and one on or after its start (begin) without a
// reason and documents.
func (s *Sandbox) refundable(m orderMeta, canceled, canCancel bool, begin string, form *gateway.RefundForm, docs []StoredDocument) error {
	switch {
	case m.Refunded:
		return refusal(msgAlreadyRefnd)
	case !canceled && !canCancel:
		return refusal("Возврат по этому заказу недоступен")
	case s.needsModeration(s.parseDT(begin)) && !hasReason(form, docs):
		return refusal(msgNeedReason)
	}
	return nil
}

func decodeDocs(files []gateway.File) ([]StoredDocument, error) {
	out := []StoredDocument{}
	for _, f := range files {
		b, err := decodeBase64(f.File)
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("%w: %s", errBadFile, f.FileName)
		}
		sum := sha256.Sum256(b)
		out = append(out, StoredDocument{Name: f.FileName, Extension: f.FileExtension, Size: len(b), SHA256: hex.EncodeToString(sum[:])})
	}
	return out, nil
}

func decodeBase64(v string) ([]byte, error) {
	if i := strings.Index(v, ";base64,"); i >= 0 && strings.HasPrefix(v, "data:") {
		v = v[i+len(";base64,"):]
	}
	v = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, v)
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		var b []byte
		if b, err = enc.DecodeString(v); err == nil {
			return b, nil
		}
	}
	return nil, err
}

// stripFiles copies files without their contents, for the stored body.
func stripFiles(files []gateway.File) []gateway.File {
	out := make([]gateway.File, len(files))
	for i, f := range files {
		out[i] = gateway.File{FileName: f.FileName, FileExtension: f.FileExtension}
	}
	return out
}

func (s *Sandbox) storeRefund(ctx context.Context, q querier, path, orderID string, form *gateway.RefundForm,
	docs []StoredDocument, products []gateway.RefundProduct, body any) error {
	if products == nil {
		products = []gateway.RefundProduct{}
	}
	_, err := q.ExecContext(ctx, `INSERT INTO refunds(path, order_id, received_at, form, documents, products, body)
		VALUES(?, ?, ?, ?, ?, ?, ?)`, path, orderID, s.now().UTC().Format(time.RFC3339Nano),
		mustJSON(form), mustJSON(docs), mustJSON(products), mustJSON(body))
	return err
}

// needsModeration reports whether a refund of something starting at start
// needs a reason and documents (start date today or earlier).
func (s *Sandbox) needsModeration(start time.Time) bool {
	return !dayOf(start.In(s.loc)).After(s.today())
}

func hasReason(form *gateway.RefundForm, docs []StoredDocument) bool {
	return form != nil && strings.TrimSpace(form.Comment) != "" && len(docs) > 0
}
