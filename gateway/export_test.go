package gateway

// DecodeOK is what the client does with a 200 answer's body, for benchmarks
// outside the package.
func DecodeOK(c *Client, body []byte, out any) error {
	return c.decode(call{op: "bench", method: "GET"}, answer{status: 200, ctype: "application/json", body: body}, out)
}

// DecodeV1 is DecodeOK as it was with encoding/json, to measure against.
func DecodeV1(body []byte, out any) error {
	v, ok, err := decodeV1(body, out)
	if err == nil && (!ok || !v.succeeded) {
		err = ErrMalformed
	}
	return err
}

// Waiting is how many callers wait for shared reads in flight.
func Waiting(c *Client) int {
	g := &c.flights
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, f := range g.m {
		n += f.waiters
	}
	return n
}
