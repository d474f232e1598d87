package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// The client reads answers with go-json-experiment under the standard
// library's rules; these are the bodies where the two could part: names in
// another case, a name twice, nulls, wrong types, invalid UTF-8, something
// after the object, and the provider's own spellings.
var trickyBodies = []string{
	`{"success":true}`,
	` {"success":true} ` + "\n",
	`{"Success":true,"ErrorMessage":""}`,
	`{"SUCCESS":false,"errormessage":" Заказ не найден "}`,
	`{"success":true,"success":false}`,
	`{"success":null,"errorMessage":null}`,
	`{"success":"true"}`,
	`{"success":1}`,
	`{"hasErrors":true,"responseDescription":"Клиент не найден"}`,
	`{"hasErrors":false,"responseDescription":"","errorMessage":"x"}`,
	`{"HasErrors":false,"ResponseDescription":"ok"}`,
	`{"errorMessage":"только текст"}`,
	`{"errorMessage":{"text":"объект"}}`,
	`{"errorMessage":"\u0417\u0430\u043a\u0430\u0437 \"1\""}`,
	"{\"success\":true,\"errorMessage\":\"\xff\xfe\"}",
	`{"success":true}{"success":false}`,
	`{"success":true} x`,
	`{"success":true`,
	`{"success":true,}`,
	`{"success":tru}`,
	`[{"success":true}]`,
	`"success"`,
	`null`,
	``,
	`{}`,
	`{"success":true,"activeOrders":[{"orderId":"300001","tickets":[{"status":"waitingForPaymant"}]}],"historyOrders":null}`,
	`{"success":true,"ActiveOrders":[{"OrderID":"300001","amount":1500.5,"paid":true,"tickets":null}],"currentOrder":null}`,
	`{"success":true,"activeOrders":[{"orderId":300001}]}`,
	`{"success":true,"activeOrders":[{"amount":"1500"}]}`,
	`{"success":true,"activeOrders":{"orderId":"1"}}`,
	`{"success":true,"activeOrders":[{"orderId":"1","orderId":"2","unknown":{"deep":[1,2,{"x":null}]}}]}`,
	`{"success":true,"currentOrder":{"orderId":"1","dateBeg":"2026-11-23T00:00:00","regDate":"23.11.2026 10:00:00"}}`,
	`{"success":true,"orders":[{"childrens":[{"fio":"Иванов"}],"dateBeg":"2026-11-23"}]}`,
	`{"success":true,"hasErrors":true,"responseDescription":"Клиент не найден"}`,
	`{"success":true,"HASERRORS":null,"activeOrders":[]}`,
	`{"success":true,"activeOrders":[{"orderId":"1","comment":"hasErrors"}]}`,
	`{"success":false,"activeOrders":[{"orderId":"1"}],"errorMessage":"Нет"}`,
	`{"activeOrders":[{"orderId":"1"}]}`,
	`{"success":true,"historyOrders":[{"orderId":"2"}],"Success":false}`,
	`{"success":true,"ha\u0073Errors":true,"activeOrders":[]}`,
	`{"success":true,"hasErrors":"true","activeOrders":[]}`,
	`{"success":true,"hasErrors":false,"hasErrors":true}`,
	`{"success":true,"hasErrors":true,"hasErrors":null}`,
	`{"success":true,"success":null,"activeOrders":[]}`,
	`{"success":true,"SUCCESS":null}`,
}

// An answer that embeds Answer is decoded in one pass when that shows
// success; whatever the body, the outcome must be the one of reading the
// verdict first.
func TestOnePassDecodeAsVerdictFirst(t *testing.T) {
	fresh := []func() any{
		func() any { return new(AquaOrdersAnswer) },
		func() any { return new(HotelOrdersAnswer) },
		func() any { return new(LessonsAnswer) },
		func() any { return new(ClientInfoAnswer) },
	}
	c := &Client{}
	for _, status := range []int{200, 404, 500} {
		for _, body := range trickyBodies {
			for _, f := range fresh {
				got, want := f(), f()
				cl := call{op: "test", method: "GET"}
				a := answer{status: status, ctype: "application/json", body: []byte(body)}
				errGot := c.decode(cl, a, got)
				errWant := decodeJSON(cl, a, bytes.TrimSpace(a.body), want)
				if fmt.Sprint(errGot) != fmt.Sprint(errWant) || reflect.TypeOf(errGot) != reflect.TypeOf(errWant) {
					t.Errorf("%d %s into %T: error %v, verdict first %v", status, body, got, errGot, errWant)
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%d %s into %T:\n got %+v\nwant %+v", status, body, got, got, want)
				}
			}
		}
	}
}

func TestVerdictAsEncodingJSON(t *testing.T) {
	for _, body := range trickyBodies {
		got, gotOK := readVerdict([]byte(body))
		want, wantOK := readVerdictV1([]byte(body))
		if got != want || gotOK != wantOK {
			t.Errorf("%s: verdict %+v %v, encoding/json reads %+v %v", body, got, gotOK, want, wantOK)
		}
	}
}

func TestAnswersDecodeAsEncodingJSON(t *testing.T) {
	fresh := []func() any{
		func() any { return new(AquaOrdersAnswer) },
		func() any { return new(HotelOrdersAnswer) },
		func() any { return new(ClientInfoAnswer) },
	}
	for _, body := range trickyBodies {
		for _, f := range fresh {
			got, want := f(), f()
			errGot := unmarshal([]byte(body), got)
			errWant := json.Unmarshal([]byte(body), want)
			if (errGot == nil) != (errWant == nil) {
				t.Errorf("%s into %T: error %v, encoding/json %v", body, got, errGot, errWant)
				continue
			}
			if errWant == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("%s into %T:\n got %+v\nwant %+v", body, got, got, want)
			}
		}
	}
}
