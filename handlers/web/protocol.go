package web

import (
	"bytes"
	"fmt"
	"net"
	"regexp"
	"strconv"
)

// RussianProtocolErrors rewrites net/http's own English answer to a request
// it cannot parse (a 4xx with exactly these two headers and Connection: close,
// sent before any handler) into the same status with a Russian body.
func RussianProtocolErrors(ln net.Listener) net.Listener { return protocolListener{ln} }

var protocolError = regexp.MustCompile(`\AHTTP/1\.1 (4\d\d) [^\r\n]*\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n[^\r\n]*\z`)

type protocolListener struct{ net.Listener }

func (l protocolListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return protocolConn{c}, nil
}

type protocolConn struct{ net.Conn }

func (c protocolConn) Write(p []byte) (int, error) {
	m := protocolError.FindSubmatch(p)
	if m == nil {
		return c.Conn.Write(p)
	}
	code, _ := strconv.Atoi(string(m[1]))
	msg := []byte(msgHeadersTooLong)
	if code != 431 {
		msg = fmt.Appendf(nil, msgBadRequest, code)
	}
	head := p[:bytes.Index(p, []byte("\r\n\r\n"))+4]
	if _, err := c.Conn.Write(append(append([]byte{}, head...), msg...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
