package gateway

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
)

// A refund's documents (up to 25 MB) travel as base64 inside its JSON body.
// Encoding them with the rest of the body would hold about four times their
// size at once (the base64 text, encoding/json's growing buffer and its
// copy); measured on bin/lk, one refund of 25 MB raised the process's peak
// RSS from 16 MB to 216 MB. Instead the body is marshalled with one
// placeholder document, and the client sends the bytes around it with the
// real documents encoded to base64 on the fly, a few kilobytes at a time.

// MaxDocuments is what one refund's documents hold together at most, before
// base64: what the refund form accepts.
const MaxDocuments = 25 << 20

// MaxRefundRequest is the largest refund request the client sends: the
// documents in base64 and up to a megabyte for the rest (the form, up to
// ten names, JSON's escapes). The provider's gateway must accept it; the
// contract states it and the sandbox accepts exactly that much.
const MaxRefundRequest = (MaxDocuments+2)/3*4 + 1<<20

// docsMark stands for the documents while the rest of the body is encoded.
// Its marshalled form starts with `{"file_name":`, which cannot occur inside
// a JSON string (the quote would be escaped), so it is found only where the
// encoder put it.
var docsMark = File{FileName: "\x00lk-documents\x00"}

// withDocuments takes the documents out of a request body: what the body
// holds in their place, and the documents for call.files (nil when none).
func withDocuments(docs []File) (placeholder, files []File) {
	if len(docs) == 0 {
		return []File{}, nil
	}
	return []File{docsMark}, docs
}

// documentsBody is the body of a call with files: the JSON of v, whose
// documents are the placeholder, with the files in their place. open gives
// a fresh reader for each attempt; size is its length.
func documentsBody(v any, files []File) (open func() io.Reader, size int64, err error) {
	skeleton, err := json.Marshal(v)
	if err != nil {
		return nil, 0, err
	}
	mark, _ := json.Marshal(docsMark)
	i := bytes.Index(skeleton, mark)
	if i < 0 {
		return nil, 0, errors.New("the documents' placeholder is not in the body")
	}
	// Pieces are either bytes sent as they are, or a document's raw content
	// sent as base64.
	type piece struct {
		raw    []byte
		base64 bool
	}
	pieces := []piece{{raw: skeleton[:i]}}
	for n, f := range files {
		if n > 0 {
			pieces = append(pieces, piece{raw: []byte(",")})
		}
		if f.Data == nil { // already base64 text
			b, _ := json.Marshal(f) // strings always marshal
			pieces = append(pieces, piece{raw: b})
			continue
		}
		// The document with an empty "file", its tags as File says; the
		// content goes between the last two quotes, before `"}`.
		shell, _ := json.Marshal(File{FileName: f.FileName, FileExtension: f.FileExtension})
		end := len(shell) - len(`"}`)
		pieces = append(pieces, piece{raw: shell[:end]}, piece{raw: f.Data, base64: true}, piece{raw: shell[end:]})
	}
	pieces = append(pieces, piece{raw: skeleton[i+len(mark):]})
	for _, p := range pieces {
		if p.base64 {
			size += int64(base64.StdEncoding.EncodedLen(len(p.raw)))
		} else {
			size += int64(len(p.raw))
		}
	}
	open = func() io.Reader {
		rs := make([]io.Reader, len(pieces))
		for i, p := range pieces {
			if p.base64 {
				rs[i] = &base64Reader{src: p.raw}
			} else {
				rs[i] = bytes.NewReader(p.raw)
			}
		}
		return io.MultiReader(rs...)
	}
	return open, size, nil
}

// base64Reader reads src as standard base64, encoding 3 KB at a time:
// whole groups of three bytes, so the pieces join into one encoding.
type base64Reader struct {
	src []byte
	buf [4096]byte
	out []byte
}

func (r *base64Reader) Read(p []byte) (int, error) {
	if len(r.out) == 0 {
		if len(r.src) == 0 {
			return 0, io.EOF
		}
		n := min(len(r.src), len(r.buf)/4*3)
		base64.StdEncoding.Encode(r.buf[:], r.src[:n])
		r.out, r.src = r.buf[:base64.StdEncoding.EncodedLen(n)], r.src[n:]
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}
