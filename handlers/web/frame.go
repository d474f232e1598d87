package web

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"html"
	"net/http"
	"strconv"
	"sync"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/flate"
	"github.com/labstack/echo/v5"

	"lk/views"
)

// hdrFramed marks an answer whose frame went first; the page names its own
// status in metaStatus, so the offline worker (islands/sw) keeps only successes.
const (
	hdrFramed  = "LK-Framed"
	metaStatus = `<meta name="lk-status" content="`
)

// frames are prepared once per menu and shell; the nonce and the name fill holes.
type frames struct {
	site   *views.Site
	assets *views.Assets
	mu     sync.Mutex
	m      map[frameKind]*frame
}

// busyPage is the Russian 503 page of nobody signed in, prepared once.
type busyPage struct {
	site   *views.Site
	assets *views.Assets
	mu     sync.Mutex
	f      *frame
}

func (bp *busyPage) get() (*frame, error) {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	if bp.f != nil {
		return bp.f, nil
	}
	p := views.Page{Title: MsgServerTitle, Nonce: nonceMark, Site: bp.site, Assets: bp.assets}
	var b bytes.Buffer
	if err := views.ErrorPage(p, MsgServerTitle, msgBusy).Render(templ.WithNonce(context.Background(), nonceMark), &b); err != nil {
		return nil, err
	}
	bp.f = prepareFrame(b.Bytes())
	return bp.f, nil
}

type frameKind struct {
	nav                string
	signedIn, withName bool
}

// The holes' marks: letters that no escaping changes and no page holds.
const (
	nonceMark = "lkFRAMEnonceHOLE"
	nameMark  = "lkFRAMEnameHOLE"
)

func (fs *frames) get(nav string, signedIn, withName bool) (*frame, error) {
	kind := frameKind{nav, signedIn, withName}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f := fs.m[kind]; f != nil {
		return f, nil
	}
	p := views.Page{Nonce: nonceMark, Site: fs.site, Assets: fs.assets, Nav: nav}
	if signedIn {
		p.User = &views.User{}
		if withName {
			p.User.Name = nameMark
		}
	}
	var b bytes.Buffer
	ctx := templ.WithNonce(context.Background(), nonceMark)
	b.WriteString("<!DOCTYPE html><html lang=\"ru\"><head>")
	if err := views.LoadingHead(p).Render(ctx, &b); err != nil {
		return nil, err
	}
	b.WriteString("</head><body>")
	if err := views.LoadingTop(p).Render(ctx, &b); err != nil {
		return nil, err
	}
	f := prepareFrame(b.Bytes())
	if fs.m == nil {
		fs.m = map[frameKind]*frame{}
	}
	fs.m[kind] = f
	return f, nil
}

// frame is a prepared frame: its parts around the holes, each also deflated.
type frame struct {
	parts, deflated [][]byte
	holes           []string // the mark of the hole after each part but the last
}

func prepareFrame(b []byte) *frame {
	f := &frame{}
	for {
		i, mark := len(b), ""
		for _, m := range []string{nonceMark, nameMark} {
			if j := bytes.Index(b, []byte(m)); j >= 0 && j < i {
				i, mark = j, m
			}
		}
		f.parts = append(f.parts, b[:i])
		f.deflated = append(f.deflated, deflateOnce(b[:i]))
		if mark == "" {
			return f
		}
		f.holes = append(f.holes, mark)
		b = b[i+len(mark):]
	}
}

// send writes and flushes the frame, gzip-compressed from its prepared parts
// when the browser takes it.
func (f *frame) send(out http.ResponseWriter, nonce, name string) (*frameStream, error) {
	h := out.Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Del(echo.HeaderContentLength)
	h.Set(hdrFramed, "1")
	st := &frameStream{w: out, gz: gzipAccepted(out)}
	if st.gz {
		h.Set(echo.HeaderContentEncoding, "gzip")
	}
	out.WriteHeader(http.StatusOK)
	st.fill(f, nonce, name)
	if err := st.flush(); err != nil {
		return nil, err
	}
	return st, http.NewResponseController(out).Flush()
}

// fill adds the frame's parts with its holes filled.
func (st *frameStream) fill(f *frame, nonce, name string) {
	if st.gz {
		st.buf = append(st.buf, gzipHeader[:]...)
	}
	for i, part := range f.parts {
		st.add(part, f.deflated[i])
		if i < len(f.holes) {
			v := nonce
			if f.holes[i] == nameMark {
				v = name
			}
			st.addStored([]byte(html.EscapeString(v)))
		}
	}
}

// whole writes a prepared page as a whole answer of known length.
func (f *frame) whole(out http.ResponseWriter, status int, nonce string) error {
	h := out.Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	st := &frameStream{w: out, gz: gzipAccepted(out)}
	if st.gz {
		h.Set(echo.HeaderContentEncoding, "gzip")
	}
	st.fill(f, nonce, "")
	st.closeEmpty()
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(st.buf)))
	out.WriteHeader(status)
	return st.flush()
}

// frameStream is an answer written as frame then page, one gzip stream when
// gz: parts deflated beforehand, what varies in stored blocks.
type frameStream struct {
	w    http.ResponseWriter
	gz   bool
	buf  []byte // what is to go out at the next flush
	crc  uint32
	size uint32
}

// add appends a part, as deflated when the stream is gzip.
func (f *frameStream) add(plain, deflated []byte) {
	if !f.gz {
		f.buf = append(f.buf, plain...)
		return
	}
	f.buf = append(f.buf, deflated...)
	f.crc = crc32.Update(f.crc, crc32.IEEETable, plain)
	f.size += uint32(len(plain))
}

// addStored appends a short part as it is: in gzip, a stored block.
func (f *frameStream) addStored(plain []byte) {
	if !f.gz {
		f.add(plain, nil)
		return
	}
	for len(plain) > 0 {
		n := min(len(plain), 0xffff)
		f.add(plain[:n], storedBlock(plain[:n]))
		plain = plain[n:]
	}
}

func storedBlock(b []byte) []byte {
	n := uint16(len(b))
	return append([]byte{0, byte(n), byte(n >> 8), byte(^n), byte(^n >> 8)}, b...)
}

func (f *frameStream) flush() error {
	_, err := f.w.Write(f.buf)
	f.buf = f.buf[:0]
	return err
}

// closeEmpty ends the stream: in gzip, an empty final block and the trailer.
func (f *frameStream) closeEmpty() {
	if !f.gz {
		return
	}
	f.buf = append(f.buf, 1, 0, 0, 0xff, 0xff)
	f.buf = binary.LittleEndian.AppendUint32(f.buf, f.crc)
	f.buf = binary.LittleEndian.AppendUint32(f.buf, f.size)
}

// end sends the page after the frame and closes the stream.
func (f *frameStream) end(page []byte) error {
	if !f.gz {
		_, err := f.w.Write(page)
		return err
	}
	out := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(out)
	zw := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(zw)
	zw.Reset(out)
	if _, err := zw.Write(page); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	f.crc = crc32.Update(f.crc, crc32.IEEETable, page)
	f.size += uint32(len(page))
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], f.crc)
	binary.LittleEndian.PutUint32(trailer[4:], f.size)
	out.Write(trailer[:])
	_, err := f.w.Write(out.Bytes())
	return err
}
