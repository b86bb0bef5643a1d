package mockserver

import (
	"errors"
	"net/http"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
	"github.com/docsagent/mintlify-go/mockserver/internal/index"
	"github.com/docsagent/mintlify-go/mockserver/internal/reqbody"
)

// The Index API (Universal Search) under /api/universal-search: context,
// search and contents over a fixed corpus, for mint_us_ keys. The corpus,
// the validation and every answer are internal/index's; this file is the
// wire: keys, the closed request bodies, and errors as {"error"} alone.
// Its two limits (10 requests a second and 1,000 a day per organization)
// are rows of the route table; it sends no CORS headers.

// IndexKey is the primary Index key (mint_us_…).
func (s *Server) IndexKey() string { return s.indexKey }

// authorizeIndex checks an Index key: another kind of key, an unknown or
// expired one, or one whose organization has no Index access is 401
// {"error": "Unauthorized"}; a request from outside the key's allowlist
// is 403.
func (s *Server) authorizeIndex(r *http.Request) (*access.Key, reply, bool) {
	token, rep, ok := bearer(r, "Index key")
	if !ok {
		return nil, rep, false
	}
	if access.KindOf(token) != access.KindIndex {
		return nil, unauthorized("not an Index key"), false
	}
	k := s.orgs.Lookup(token)
	if k == nil || !s.orgs.IndexAccess(k.Org) {
		return nil, unauthorized("unknown key, or no Index access"), false
	}
	if rep, ok := s.checkKey(k, r, index.MsgIPNotAllowed); !ok {
		return nil, rep, false
	}
	return k, reply{}, true
}

func (s *Server) indexContext(c *call) reply {
	return answerIndex(c, func(req index.ContextRequest) (any, error) { return s.index.Context(req) })
}

func (s *Server) indexSearch(c *call) reply {
	return answerIndex(c, func(req index.SearchRequest) (any, error) { return s.index.Search(req) })
}

func (s *Server) indexContents(c *call) reply {
	return answerIndex(c, func(req index.ContentsRequest) (any, error) { return s.index.Contents(req) })
}

// answerIndex reads a closed request body (every Index schema says
// additionalProperties: false: an unknown member, a case variant included,
// is a 400; so is a null member, which encoding/json would read as
// absent), answers it, and writes the answer or the refusal. The 400's
// body is the vendor's text alone; which rule failed goes to no one (the
// schema allows no other member).
func answerIndex[Req any](c *call, answer func(Req) (any, error)) reply {
	body, rep, ok := readObject(c, "")
	if !ok {
		return rep
	}
	var req Req
	if err := index.CheckNulls(body); err != nil {
		return indexReply(err)
	}
	if err := reqbody.DecodeClosed(body, &req); err != nil {
		return indexReply(err)
	}
	resp, err := answer(req)
	if err != nil {
		return indexReply(err)
	}
	return jsonReply(http.StatusOK, mustJSON(resp))
}

// indexReply is a refusal as the Index API answers it: its status and
// text from an *index.Error, else (a body the decoder refused) the
// generic 400.
func indexReply(err error) reply {
	var e *index.Error
	if errors.As(err, &e) {
		return errorReply(e.Status, e.Message)
	}
	return errorReply(http.StatusBadRequest, index.MsgInvalidBody)
}
