package reqbody

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	Name string `json:"name"`
}

type body struct {
	Prompt string  `json:"prompt"`
	N      int     `json:"n"`
	Items  []inner `json:"items"`
	In     *inner  `json:"in"`
}

// An API body keeps exactly what a parser that ignores the case variants
// would see: the members named exactly, in a well-formed object whatever
// members around them are left out.
func TestDecodeLeavesCaseVariantsOut(t *testing.T) {
	for in, want := range map[string]body{
		`{"prompt":"a","PROMPT":""}`:                                                           {Prompt: "a"},
		`{"PROMPT":"","prompt":"a"}`:                                                           {Prompt: "a"},
		`{"PROMPT":"", "Prompt" : 7 ,"prompt":"a","N":"x"}`:                                    {Prompt: "a"},
		`{ "Prompt":1 , "PROMPT":2 }`:                                                          {},
		`{"prompt":"a","x":{"PROMPT":1},"N":[1,{"n":2}],"n":3}`:                                {Prompt: "a", N: 3},
		`{"items":[{"NAME":"x","name":"y"},{"name":"z","Name":1}],"in":{"Name":2,"name":"w"}}`: {Items: []inner{{"y"}, {"z"}}, In: &inner{"w"}},
		"{\"prompt\":\"a\xffb\"}":                                                              {Prompt: "a\uFFFDb"},
		"{\"prompt\":\"a\",\n\t\"PROMPT\":\"b\"\n}":                                            {Prompt: "a"},
	} {
		var got body
		if err := Decode([]byte(in), &got); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", in, got, want)
		}
	}
}

func TestDecodeRefusesRepeatsAndMalformedBodies(t *testing.T) {
	for in, want := range map[string]string{
		`{"prompt":"a","prompt":"b"}`:    "prompt: given more than once",
		`{"in":{"name":"a","name":"b"}}`: "in.name: given more than once",
		`{"x":{"y":1,"y":2}}`:            "x.y: given more than once",
		`{"prompt":`:                     "not valid JSON",
		`{"prompt":"a"} {}`:              "not valid JSON",
		`{"n":"x"}`:                      "n: must be a JSON number",
		strings.Repeat("[", 100):         "nests deeper than 64",
	} {
		var got body
		err := Decode([]byte(in), &got)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// An integer field takes a number whose value is whole however it is
// written, as a JavaScript parser reads it; a fraction is refused as one,
// and a number no field can hold as out of range.
func TestDecodeReadsWholeNumbersAsIntegers(t *testing.T) {
	for in, want := range map[string]int{
		`{"n":3.0}`: 3, `{"n":3e0}`: 3, `{"n":30E-1}`: 3, `{"n":-0.0}`: 0, `{"n" : 1.5e1 }`: 15,
		`{"n":2.0,"N":2.5,"x":1e400}`: 2, `{"N":2.5,"n":2.0}`: 2,
	} {
		for name, decode := range map[string]func([]byte, any) error{"Decode": Decode, "DecodeStrict": DecodeStrict, "DecodeClosed": DecodeClosed} {
			if name != "Decode" && strings.Contains(in, `"N"`) {
				continue // not their kind of body
			}
			var got body
			if err := decode([]byte(in), &got); err != nil || got.N != want {
				t.Errorf("%s(%s): %d, %v; want %d", name, in, got.N, err, want)
			}
		}
	}
	for in, want := range map[string]string{
		`{"n":2.5}`:    "n: must be a whole number",
		`{"n":1e400}`:  "n: out of range",
		`{"n":1e19}`:   "n: out of range",
		`{"n":"3.0"}`:  "n: must be a JSON number",
		`{"n":[3.0]}`:  "n: must be a JSON number",
		`{"n":3.0.0}`:  "not valid JSON",
		`{"n":-3.01}`:  "n: must be a whole number",
		`{"n":.5}`:     "not valid JSON",
		`{"n":3.0e+0}`: "",
	} {
		var got body
		err := Decode([]byte(in), &got)
		switch {
		case want == "" && (err != nil || got.N != 3):
			t.Errorf("%s: %d, %v", in, got.N, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// A control body names its keys exactly and is valid UTF-8.
func TestDecodeStrictRefusesWhatItDoesNotKnow(t *testing.T) {
	for in, want := range map[string]string{
		`{"PROMPT":"x"}`:         `PROMPT: unknown field; field names are case-sensitive: send "prompt"`,
		`{"promt":"x"}`:          "promt: unknown field",
		`{"items":[{"Name":1}]}`: `items.Name: unknown field; field names are case-sensitive: send "name"`,
		"{\"prompt\":\"a\xff\"}": "not valid UTF-8",
	} {
		var got body
		err := DecodeStrict([]byte(in), &got)
		if err == nil || err.Error() != want && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	var got body
	if err := DecodeStrict([]byte(`{"prompt":"a","items":[{"name":"b"}]}`), &got); err != nil || got.Prompt != "a" || got.Items[0].Name != "b" {
		t.Errorf("%+v, %v", got, err)
	}
}

// Whatever members are left out, what remains is JSON.
func FuzzDecodeKeepsTheBodyWellFormed(f *testing.F) {
	for _, s := range []string{`{"prompt":"a","PROMPT":""}`, `{"Prompt":1,"PROMPT":2}`, `{"items":[{"NAME":1,"name":"x"}]}`, `{}`, `{"N":1,"n":2.0e1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w := newWalker(data, false)
		var v body
		if w.walk(reflect.TypeOf(&v)) != nil {
			return
		}
		if out := w.edited(); len(w.edits) > 0 && !json.Valid(out) && json.Valid(data) {
			t.Fatalf("%q became %q", data, out)
		}
	})
}

// Arrays of a control body are counted before anything is decoded: a path
// holds its bound in all, across every array at that path, and an array no
// bound names holds DefaultMaxItems.
func TestDecodeStrictCountsItemsBeforeDecoding(t *testing.T) {
	type turn struct {
		Query string `json:"query"`
	}
	type thread struct {
		Turns []turn `json:"turns"`
	}
	var body struct {
		Threads []thread `json:"threads"`
		Tags    []string `json:"tags"`
	}
	limits := Limits{"threads": 3, "threads.turns": 4}
	for _, c := range []struct {
		json string
		path string // "" for a body within its bounds
	}{
		{`{"threads":[{},{},{}]}`, ""},
		{`{"threads":[{},{},{},{}]}`, "threads"},
		{`{"threads":[{"turns":[{},{}]},{"turns":[{},{}]}]}`, ""},
		{`{"threads":[{"turns":[{},{}]},{"turns":[{},{},{}]}]}`, "threads.turns"},
		{`{"tags":[` + strings.Repeat(`"x",`, DefaultMaxItems-1) + `"x"]}`, ""},
		{`{"tags":[` + strings.Repeat(`"x",`, DefaultMaxItems) + `"x"]}`, "tags"},
	} {
		err := limits.DecodeStrict([]byte(c.json), &body)
		var items *ItemsError
		switch {
		case c.path == "" && err != nil:
			t.Errorf("%.60s: %v", c.json, err)
		case c.path != "" && (!errors.As(err, &items) || items.Path != c.path):
			t.Errorf("%.60s: %v, want too many items at %s", c.json, err, c.path)
		}
	}
	// Counting comes first: an item past the bound is refused even when a
	// later one would fail to decode.
	err := limits.DecodeStrict([]byte(`{"threads":[{},{},{},{},{"turns":7}]}`), &body)
	var items *ItemsError
	if !errors.As(err, &items) {
		t.Errorf("got %v, want the bound", err)
	}
}

// A closed schema's body: unknown members and case variants are refused at
// any depth, invalid UTF-8 is read as parsers read it.
func TestDecodeClosedRefusesWhatTheSchemaDoesNotName(t *testing.T) {
	var got body
	if err := DecodeClosed([]byte("{\"prompt\":\"a\xffb\",\"items\":[{\"name\":\"x\"}]}"), &got); err != nil {
		t.Fatal(err)
	}
	if got.Prompt != "a\uFFFDb" || len(got.Items) != 1 {
		t.Errorf("got %+v", got)
	}
	for _, in := range []string{`{"prompt":"a","extra":1}`, `{"PROMPT":"a"}`, `{"items":[{"name":"x","Name":"y"}]}`, `{"prompt":"a","prompt":"b"}`} {
		if err := DecodeClosed([]byte(in), &body{}); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
}
