package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/sse"
)

// doctor --spend: one question to the assistant, and how its answer
// travels.

// checkStream asks one question (a credit) and reads how the answer
// travels, then sends a follow-up in its thread without the thread's key.
func (d *doctor) checkStream(ctx context.Context, c *mintlify.AssistantClient, r *apiReport) {
	chk := r.add("message", expectation{method: "POST", route: "/discovery/v2/assistant/{domain}/message", status: 200})
	d.wire.begin()
	s, err := c.Message(ctx, mintlify.MessageParams{Messages: []mintlify.ChatMessage{
		{Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: d.question}}}}})
	if err != nil {
		d.judgeStreamError(chk, err)
		return
	}
	var readErr error
	for _, err := range s.Events() {
		if err != nil {
			readErr = err
			break
		}
	}
	_ = s.Close()
	ans := d.wire.answer()
	if ans == nil {
		chk.differ("no answer", "", "the request failed", d.text(errText(readErr)))
		return
	}
	chk.Status = ans.status
	if readErr != nil {
		chk.differ("stream", "", "the SDK could not read the stream to its end", d.text(readErr.Error()))
	}
	body, _ := ans.bytes()
	st := readStream(body)
	d.judgeStream(chk, ans.header, st)

	follow := r.add("follow-up without the thread key", expectation{method: "POST", route: chk.want.route, status: 404})
	threadID := cmp.Or(ans.header.Get("X-Thread-Id"), st.finishThreadID)
	if threadID == "" {
		follow.skip("no thread ID to follow up in")
		return
	}
	d.wire.begin()
	d.wire.setDropThreadKey(true)
	fs, err := c.Message(ctx, mintlify.MessageParams{ThreadID: threadID, ThreadKey: "dropped-before-sending",
		Messages: []mintlify.ChatMessage{{Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: "And then?"}}}}})
	d.wire.setDropThreadKey(false)
	if err == nil {
		_ = fs.Close()
	}
	fa := d.wire.answer()
	switch {
	case fa == nil:
		follow.differ("no answer", "", "the request failed", d.text(errText(err)))
	case fa.status/100 == 2:
		follow.Status = fa.status
		follow.differ("thread", "", fmt.Sprintf("a follow-up without the thread's key was answered (%d): anyone with a thread's ID can write in it (and it spent a credit)", fa.status), "")
	case fa.status == http.StatusUnauthorized || fa.status == http.StatusForbidden:
		follow.Status = fa.status
		follow.note(fmt.Sprintf("refused with %d", fa.status), "")
		if fa.status != follow.want.status {
			follow.differ("status", "", fmt.Sprintf("refused with %d where the SDK and the mock expect %d", fa.status, follow.want.status), "")
		}
	default:
		follow.Status = fa.status
		if fa.status != follow.want.status {
			follow.differ("status", "", fmt.Sprintf("refused with %d where the SDK and the mock expect %d", fa.status, follow.want.status), "")
		} else {
			follow.note(fmt.Sprintf("refused with %d", fa.status), "")
		}
	}
}

func (d *doctor) judgeStreamError(chk *checkReport, err error) {
	ans := d.wire.answer()
	if ans != nil && (ans.status == http.StatusUnauthorized || ans.status == http.StatusForbidden) {
		d.judge(chk, err, 200)
		return
	}
	if ans != nil {
		chk.Status = ans.status
	}
	chk.differ("message", "", "the question was not answered", d.text(err.Error()))
}

// maxStreamTypes bounds the chunk types a report names: the protocol has
// two dozen, and a stream of a type per frame would otherwise cost a
// scan of every type before it, and a line of the report, for each.
const maxStreamTypes = 64

// streamRead is what the framing of a UI message stream showed.
type streamRead struct {
	frames, badFrames int
	done              bool     // ended with data: [DONE]
	types             []string // chunk types, in order of first appearance: at most maxStreamTypes
	seen              map[string]bool
	moreTypes         int // distinct types beyond maxStreamTypes
	finishThreadID    string
	finished          bool
}

// readStream reads the stream's events with the reader the SDK and its
// proxy use, which reads as the AI SDK's parser does: lines end at CRLF,
// LF or CR; an empty line ends an event; "data:" lines join; other fields
// and comments are ignored, as every client ignores them.
func readStream(body []byte) streamRead {
	var st streamRead
	events := sse.NewReader(bytes.NewReader(body), len(body)+1)
	for {
		data, err := events.Next()
		if err != nil {
			break // the body is in memory: its end, or an event past the body's size
		}
		st.frames++
		payload := string(data)
		if payload == "[DONE]" {
			st.done = true
			continue
		}
		// The members by their exact names, as JSON.parse and the SDK
		// read them (encoding/json would take "ThreadId" for threadId).
		var chunk map[string]json.RawMessage
		var typ, threadID string
		if json.Unmarshal([]byte(payload), &chunk) != nil || json.Unmarshal(chunk["type"], &typ) != nil || typ == "" {
			st.badFrames++
			continue
		}
		switch {
		case st.seen[typ]:
		case len(st.types) < maxStreamTypes:
			if st.seen == nil {
				st.seen = make(map[string]bool)
			}
			st.seen[typ] = true
			st.types = append(st.types, typ)
		default:
			st.seen[typ] = true
			st.moreTypes++
		}
		if typ == "finish" {
			_ = json.Unmarshal(chunk["threadId"], &threadID) // absent or another type: none
			st.finished, st.finishThreadID = true, threadID
		}
	}
	return st
}

// judgeStream compares the stream with what the SDK, its proxy and the
// mock assume: an event stream of the AI SDK's UI message chunks, [DONE]
// last, the thread's ID in X-Thread-Id and in the finish chunk, its key
// in X-Thread-Key.
func (d *doctor) judgeStream(chk *checkReport, h http.Header, st streamRead) {
	if ct := h.Get("Content-Type"); !strings.HasPrefix(strings.ToLower(ct), "text/event-stream") {
		chk.differ("media type", "", "Content-Type is not text/event-stream", d.text(ct))
	}
	if v := h.Get("X-Vercel-AI-UI-Message-Stream"); v != "v1" {
		chk.differ("header", "X-Vercel-AI-UI-Message-Stream", "not v1", d.text(v))
	}
	types := fmt.Sprintf("%d frames; chunk types", st.frames)
	if st.moreTypes > 0 {
		types = fmt.Sprintf("%d frames; %d more chunk types than these", st.frames, st.moreTypes)
	}
	shown := make([]string, len(st.types))
	for i, t := range st.types {
		shown[i] = d.text(t)
	}
	chk.note(types, strings.Join(shown, ", "))
	if st.badFrames > 0 {
		chk.differ("framing", "", fmt.Sprintf("%d frames are not a JSON chunk with a type", st.badFrames), "")
	}
	if !st.done {
		chk.differ("framing", "", "the stream did not end with data: [DONE]", "")
	}
	if !st.finished {
		chk.differ("framing", "", "no finish chunk", "")
	}
	for _, t := range st.types {
		if !slices.Contains(streamChunkTypes, t) && !strings.HasPrefix(t, "data-") {
			chk.differ("chunk type", "", "not a chunk type of the AI SDK's UI message stream", d.text(t))
		}
	}
	id := h.Get("X-Thread-Id")
	switch {
	case id == "":
		chk.differ("header", "X-Thread-Id", "missing: the thread's ID did not come in the header", "")
	case st.finishThreadID != "" && st.finishThreadID != id:
		chk.differ("thread", "finish.threadId", "another thread than X-Thread-Id names", "")
	}
	if st.finished && st.finishThreadID == "" {
		chk.differ("member", "finish.threadId", "missing: the finish chunk does not carry the thread's ID", "")
	}
	if id != "" || st.finishThreadID != "" {
		where := []string{}
		if id != "" {
			where = append(where, "X-Thread-Id")
		}
		if st.finishThreadID != "" {
			where = append(where, "finish.threadId")
		}
		chk.note("threadId travels in "+strings.Join(where, " and "), "")
	}
	if h.Get("X-Thread-Key") == "" {
		chk.differ("header", "X-Thread-Key", "missing: a new thread's key did not come", "")
	} else {
		chk.note("X-Thread-Key came", "")
	}
}
