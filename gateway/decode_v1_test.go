package gateway

import (
	"bytes"
	"encoding/json"
	"strings"
)

// decodeV1 is how answers were read with encoding/json before, kept to
// measure against (BenchmarkDecodeAnswer) and to check that both read every
// body alike (TestVerdictAsEncodingJSON): the verdict by json.Unmarshal into
// raw members, then the whole answer by json.Unmarshal again.
func decodeV1(body []byte, out any) (verdict, bool, error) {
	v, ok := readVerdictV1(body)
	if !ok || out == nil {
		return v, ok, nil
	}
	return v, ok, json.Unmarshal(bytes.TrimSpace(body), out)
}

func readVerdictV1(body []byte) (v verdict, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return v, false
	}
	var raw struct {
		Success             json.RawMessage `json:"success"`
		ErrorMessage        json.RawMessage `json:"errorMessage"`
		HasErrors           json.RawMessage `json:"hasErrors"`
		ResponseDescription json.RawMessage `json:"responseDescription"`
	}
	if json.Unmarshal(body, &raw) != nil {
		return v, false
	}
	success, hasSuccess := jsonBoolV1(raw.Success)
	hasErrors, hasHasErrors := jsonBoolV1(raw.HasErrors)
	// The members read by encoding/json, judged by the one rule: what is
	// compared with readVerdict is the reading.
	return judge(success, hasSuccess, hasErrors, hasHasErrors, jsonStringV1(raw.ErrorMessage), jsonStringV1(raw.ResponseDescription)), true
}

func jsonBoolV1(r json.RawMessage) (value, present bool) {
	var b bool
	if len(r) == 0 || json.Unmarshal(r, &b) != nil {
		return false, false
	}
	return b, true
}

func jsonStringV1(r json.RawMessage) string {
	var s string
	if len(r) == 0 || json.Unmarshal(r, &s) != nil {
		return ""
	}
	return strings.TrimSpace(s)
}
