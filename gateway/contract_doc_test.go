package gateway

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The contract says what the client sends besides the body and how it
// waits, with the client's own figures: the headers, the deadlines, the
// retries, the breaker and the cap on an answer.
func TestContractSaysHeadersRetriesAndLimits(t *testing.T) {
	b, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		"`" + HeaderRequestID + "`", "`traceparent`",
		fmt.Sprintf("%d s to connect", int(DefaultConnectTimeout.Seconds())),
		fmt.Sprintf("%d s for the whole call, retries and pauses included", int(DefaultCallTimeout.Seconds())),
		fmt.Sprintf("up to %d more times", DefaultRetries),
		fmt.Sprintf("After %d failures in a row", DefaultBreakerFailures),
		fmt.Sprintf("at once for %d s", int(DefaultBreakerOpen.Seconds())),
		fmt.Sprintf("(%d bytes) of a body is read", MaxBody),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("gateway/openapi.yaml does not say %q", want)
		}
	}
}
