package mintlify_test

// The assistant API's rows of the method table (methods_test.go). The
// calls go through mintlify.AssistantOf(c): the assistant's routes on the
// table's client, key and transport.
//
// SearchDocs answers a bare array (bareArray: [] is an empty success, and
// the object mutations of the table do not apply). Message streams
// (stream): its call reads the answer to its end, and once a 2xx has
// begun, a broken answer is ErrStream (the message was received, so never
// ErrOutcomeUnknown), tested on hand-built streams in stream_test.go; the
// table's checks of malformed and echoing 2xx bodies skip it.

import (
	"context"
	"net/http"

	mintlify "github.com/docsagent/mintlify-go"
)

const (
	goodDocSearch = `[{"path":"authentication","content":"Send the key.","metadata":{"title":"Authentication","score":1}},{"path":"quickstart","content":"Install.","metadata":{}}]`
	goodPage      = `{"path":"authentication","content":"# Authentication\nSend the key."}`
	goodStream    = "data: {\"type\":\"start\",\"messageId\":\"m1\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"Send the key.\"}\n\n" +
		"data: {\"type\":\"source-url\",\"sourceId\":\"s1\",\"url\":\"https://docs.example.com/authentication\",\"title\":\"Authentication\"}\n\n" +
		"data: {\"type\":\"finish\",\"finishReason\":\"stop\",\"threadId\":\"" + testThread + "\"}\n\n" +
		"data: [DONE]\n\n"
)

var tableQuestion = mintlify.MessageParams{FP: "user-1", Messages: []mintlify.ChatMessage{
	{ID: "m1", Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: `How do I "log in" & out?`}}},
}}

var assistantMethods = []method{
	{name: "SearchDocs", verb: http.MethodPost, route: "/v1/search/{domain}", id: "docs.example.com", status: 200,
		good: goodDocSearch, bareArray: true, reqBody: `{"query":"log in","pageSize":5,"filter":{"groups":["staff"]}}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			r, err := mintlify.AssistantOf(c).SearchDocs(ctx, mintlify.DocSearchParams{Query: "log in", PageSize: 5, Groups: []string{"staff"}})
			if err != nil {
				return nil, err
			}
			return r, nil
		},
		invalid: map[string]call{
			"empty query": func(ctx context.Context, c *mintlify.Client) (any, error) {
				return nilOnError(mintlify.AssistantOf(c).SearchDocs(ctx, mintlify.DocSearchParams{}))
			},
			"page size 51": func(ctx context.Context, c *mintlify.Client) (any, error) {
				return nilOnError(mintlify.AssistantOf(c).SearchDocs(ctx, mintlify.DocSearchParams{Query: "q", PageSize: 51}))
			},
		},
		ok: func(v any) string {
			for _, r := range v.([]mintlify.DocSearchResult) {
				if r.Path == "" && r.Content == "" && r.Metadata == nil {
					return "an empty result"
				}
			}
			return ""
		}},
	{name: "GetPageContent", verb: http.MethodPost, route: "/v1/page/{domain}", id: "docs.example.com", status: 200,
		good: goodPage, required: []string{"content"}, idKey: "path", reqBody: `{"path":"authentication"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return mintlify.AssistantOf(c).GetPageContent(ctx, "authentication")
		},
		arg: func(ctx context.Context, c *mintlify.Client, path string) (any, error) {
			return mintlify.AssistantOf(c).GetPageContent(ctx, path)
		},
		badArgs: []string{""},
		invalid: map[string]call{
			"an empty group": func(ctx context.Context, c *mintlify.Client) (any, error) {
				return mintlify.AssistantOf(c).GetPageContent(ctx, "authentication", "")
			},
		},
		ok: func(v any) string {
			if p := v.(*mintlify.PageContent); p.Path != "authentication" {
				return "another page"
			}
			return ""
		}},
	{name: "Message", verb: http.MethodPost, route: "/v2/assistant/{domain}/message", id: "docs.example.com", status: 200,
		creates: true, stream: true, good: goodStream,
		reqBody: `{"fp":"user-1","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"How do I \"log in\" \u0026 out?"}]}]}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return readMessage(ctx, mintlify.AssistantOf(c), tableQuestion)
		},
		invalid: map[string]call{
			"no messages": func(ctx context.Context, c *mintlify.Client) (any, error) {
				return readMessage(ctx, mintlify.AssistantOf(c), mintlify.MessageParams{})
			},
			"a thread without its key": func(ctx context.Context, c *mintlify.Client) (any, error) {
				p := tableQuestion
				p.ThreadID = testThread
				return readMessage(ctx, mintlify.AssistantOf(c), p)
			},
		},
		ok: func(v any) string {
			if a := v.(*mintlify.Answer); a.Text != "Send the key." || a.ThreadID != testThread {
				return "not the answer sent"
			}
			return ""
		}},
}

// readMessage sends p and reads the answer to its end, as Ask does.
func readMessage(ctx context.Context, a *mintlify.AssistantClient, p mintlify.MessageParams) (*mintlify.Answer, error) {
	s, err := a.Message(ctx, p)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	for _, err := range s.Events() {
		if err != nil {
			return nil, err
		}
	}
	return &mintlify.Answer{Text: s.Text(), Sources: s.Sources(), ThreadID: s.ThreadID(), ThreadKey: s.ThreadKey(), FinishReason: s.FinishReason()}, nil
}

// nilOnError turns a nil slice with an error into an untyped nil, which
// the table reads as no result.
func nilOnError[T any](v []T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}
