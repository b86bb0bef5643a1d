package sse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/docsagent/mintlify-go/internal/memtest"
)

// pieces reads as its chunks, one a Read: a body as the network cuts it.
type pieces struct{ chunks [][]byte }

func (p *pieces) Read(b []byte) (int, error) {
	for len(p.chunks) > 0 && len(p.chunks[0]) == 0 {
		p.chunks = p.chunks[1:]
	}
	if len(p.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.chunks[0])
	p.chunks[0] = p.chunks[0][n:]
	return n, nil
}

// cutEvery is input in pieces of size bytes.
func cutEvery(input []byte, size int) io.Reader {
	p := &pieces{}
	for i := 0; i < len(input); i += size {
		p.chunks = append(p.chunks, input[i:min(i+size, len(input))])
	}
	return p
}

// readAll is the data of every event of r, and the error that ended it.
func readAll(r *Reader) ([]string, error) {
	var events []string
	for {
		data, err := r.Next()
		if err != nil {
			return events, err
		}
		events = append(events, string(data))
	}
}

// readings are the ways a test reads input: whole, a byte at a time, in
// pieces, cut in two at every byte, and through read buffers of a few
// bytes (which every line outgrows).
func readings(input []byte, max int) map[string]*Reader {
	out := map[string]*Reader{
		"whole":            NewReader(bytes.NewReader(input), max),
		"a byte at a time": NewReader(iotest.OneByteReader(bytes.NewReader(input)), max),
		"pieces of 3":      NewReader(cutEvery(input, 3), max),
		"pieces of 7":      NewReader(cutEvery(input, 7), max),
	}
	for _, size := range []int{1, 2, 5, 16} {
		out[fmt.Sprintf("a read buffer of %d", size)] = newReaderSize(bytes.NewReader(input), max, size)
	}
	if len(input) <= 4096 {
		for at := 1; at < len(input); at++ {
			out[fmt.Sprintf("cut at %d", at)] = NewReader(&pieces{chunks: [][]byte{input[:at:at], input[at:]}}, max)
		}
	}
	return out
}

// TestVectors reads the inputs of testdata/vectors.json, whose events the
// AI SDK's own parser wrote (testdata/gen), at every cutting: the Go
// reader reads the events that parser reads from the whole body.
func TestVectors(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Parser  string
		Vectors []struct {
			Name, Input string
			Events      []string
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 40 || !strings.HasPrefix(file.Parser, "eventsource-parser@") {
		t.Fatalf("%d vectors of %q: not the generated file", len(file.Vectors), file.Parser)
	}
	for _, v := range file.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			want := v.Events
			if want == nil {
				want = []string{}
			}
			for how, r := range readings([]byte(v.Input), 1<<20) {
				got, err := readAll(r)
				if got == nil {
					got = []string{}
				}
				if err != io.EOF {
					t.Errorf("read %s: ended with %v, want io.EOF", how, err)
				}
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
					t.Errorf("read %s:\n got %.200q\nwant %.200q", how, got, want)
				}
			}
		})
	}
}

// reference is the rules of the package comment, spelled plainly on a
// whole body: the fuzz target's judge of the Reader.
func reference(input []byte) []string {
	s := strings.TrimPrefix(string(input), bom)
	s = strings.TrimSuffix(s, "\r") // a CR at the very end is never acted on
	var events []string
	var data []string
	for {
		end := strings.IndexAny(s, "\r\n")
		if end < 0 {
			return events // a line without end, and any event it is in, is dropped
		}
		line := s[:end]
		if strings.HasPrefix(s[end:], "\r\n") {
			end++
		}
		s = s[end+1:]
		switch {
		case line == "":
			if data != nil {
				events = append(events, strings.Join(data, "\n"))
			}
			data = nil
		case line == "data":
			data = append(data, "")
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(line[len("data:"):], " "))
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte("data: a\r\n\r\ndata: b\rdata: c\r\r: x\n"), uint64(1))
	f.Add([]byte(bom+"data\ndata:\n\n\r"), uint64(2))
	f.Add([]byte("data: a\n\ndata: b\n\r"), uint64(3))
	f.Add([]byte("\xef\xbbdata: a\n\ndata: b\n\n"), uint64(4))
	f.Add([]byte("event: x\nid: 1\nretry: 2\n:c\n\n"), uint64(5))
	f.Fuzz(func(t *testing.T, input []byte, seed uint64) {
		want := reference(input)
		// A random cutting, and a small bound now and then.
		rng := rand.New(rand.NewPCG(seed, seed))
		p := &pieces{}
		for rest := input; len(rest) > 0; {
			n := 1 + rng.IntN(len(rest))
			p.chunks, rest = append(p.chunks, rest[:n]), rest[n:]
		}
		limit := 1 << 20
		if seed%4 == 0 {
			limit = 8
		}
		got, err := readAll(newReaderSize(p, limit, 1+int(seed%17)))
		if limit == 8 && errors.Is(err, ErrTooLarge) {
			for i, e := range got {
				if len(e) > limit || e != want[i] {
					t.Fatalf("event %d = %q, want %q within %d bytes", i, e, want[i], limit)
				}
			}
			return
		}
		if err != io.EOF {
			t.Fatalf("ended with %v", err)
		}
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}

func TestTheBound(t *testing.T) {
	t.Parallel()
	t.Run("an event of the bound is read", func(t *testing.T) {
		t.Parallel()
		// Three data lines: 4 + 1 + 4 + 1 + 2 bytes with the joining LFs.
		got, err := readAll(NewReader(strings.NewReader("data: 1234\ndata: 5678\ndata: 90\n\ndata: x\n\n"), 12))
		if err != io.EOF || len(got) != 2 || got[0] != "1234\n5678\n90" {
			t.Fatalf("%q, %v", got, err)
		}
	})
	t.Run("one byte more ends the stream", func(t *testing.T) {
		t.Parallel()
		r := NewReader(strings.NewReader("data: a\n\ndata: 1234\ndata: 5678\ndata: 901\n\ndata: x\n\n"), 12)
		got, err := readAll(r)
		if !errors.Is(err, ErrTooLarge) || len(got) != 1 {
			t.Fatalf("%q, %v", got, err)
		}
		if _, again := r.Next(); !errors.Is(again, ErrTooLarge) {
			t.Fatalf("then %v, want the same error", again)
		}
	})
	t.Run("a read error passes through and stays", func(t *testing.T) {
		t.Parallel()
		cut := errors.New("connection reset")
		r := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(cut)), 100)
		got, err := readAll(r)
		if !errors.Is(err, cut) || len(got) != 1 {
			t.Fatalf("%q, %v", got, err)
		}
		if _, again := r.Next(); !errors.Is(again, cut) {
			t.Fatalf("then %v", again)
		}
	})
}

// endless reads as head, then fill repeated for n bytes: a line without
// end, made without allocating.
type endless struct {
	head string
	fill byte
	n    int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.head != "" {
		n := copy(p, e.head)
		e.head = e.head[n:]
		return n, nil
	}
	if e.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), e.n)
	for i := range p[:n] {
		p[i] = e.fill
	}
	e.n -= n
	return n, nil
}

// TestEndlessLinesCostTheBound: a data line without end stops at the
// bound, having allocated about twice it; a comment line without end, or
// an endless run of them, is read through in the read buffer alone.
func TestEndlessLinesCostTheBound(t *testing.T) {
	const bound = 1 << 20
	var err error
	alloc := memtest.Allocated(func() {
		_, err = readAll(NewReader(&endless{head: "data: ", fill: 'x', n: 64 << 20}, bound))
	})
	if !errors.Is(err, ErrTooLarge) || alloc > 3*bound {
		t.Errorf("an endless data line: %v after %d bytes allocated, want ErrTooLarge within %d", err, alloc, 3*bound)
	}
	for name, body := range map[string]io.Reader{
		"a comment without end":  &endless{head: ":", fill: 'x', n: 64 << 20},
		"an endless run of them": &endless{fill: ':', n: 64 << 20},
		"empty lines":            &endless{fill: '\n', n: 64 << 20},
		"an unknown field":       &endless{head: "dat", fill: 'a', n: 64 << 20},
	} {
		var events []string
		alloc := memtest.Allocated(func() { events, err = readAll(NewReader(body, bound)) })
		if err != io.EOF || len(events) != 0 || alloc > 2*readBuffer {
			t.Errorf("%s: %d events, %v, %d bytes allocated: want none, io.EOF, the read buffer alone", name, len(events), err, alloc)
		}
	}
}

// BenchmarkReader reads an answer of small events, as an assistant
// streams them.
func BenchmarkReader(b *testing.B) {
	var body bytes.Buffer
	for range 1000 {
		body.WriteString(`data: {"type":"text-delta","id":"t1","delta":"three words each "}` + "\n\n")
	}
	b.SetBytes(int64(body.Len()))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(body.Bytes()), 4<<20)
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}
