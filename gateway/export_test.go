package gateway

// DecodeOK is what the client does with a 200 answer's body, for benchmarks
// outside the package.
func DecodeOK(c *Client, body []byte, out any) error {
	return c.decode(call{op: "bench", method: "GET"}, answer{status: 200, ctype: "application/json", body: body}, out)
}
