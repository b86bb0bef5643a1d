package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxBodyBytes is the largest request body accepted; larger ones are
// refused without being read whole.
const maxBodyBytes = 1 << 20

func (s *Server) createJob(c *call) reply {
	prompt, forced, rep, ok := readRun(c)
	if !ok {
		return rep
	}
	outcome := s.chooseOutcome(prompt, forced)
	j := &job{
		id:        "job_" + randomToken(),
		project:   c.project,
		createdAt: c.now,
		prompt:    prompt,
	}
	j.ref = branchName(prompt, j.id)

	st := s.jobs
	st.mu.Lock()
	defer st.mu.Unlock()
	st.startRun(j, outcome, c.now, s.cfg.jobDuration)
	st.byID[j.id] = j
	st.order = append(st.order, j)
	return jobReply(http.StatusCreated, j, c.now)
}

// readRun reads what a create and a follow-up both carry: the prompt, and
// the outcome forced by the override header, if any (readOverrides has
// already refused a bad one).
func readRun(c *call) (string, Outcome, reply, bool) {
	forced, rep, ok := outcomeOverride(c.r)
	if !ok {
		return "", "", rep, false
	}
	prompt, rep, ok := readPrompt(c)
	if !ok {
		return "", "", rep, false
	}
	return prompt, forced, reply{}, true
}

func (s *Server) getJob(c *call) reply {
	st := s.jobs
	st.mu.RLock()
	defer st.mu.RUnlock()
	j := st.lookup(c.r.PathValue("id"), c.project)
	if j == nil {
		return jobNotFound()
	}
	return jobReply(http.StatusOK, j, c.now)
}

// followUp starts a new run of the job whatever state it is in, except
// archived: that is final, as in the service. The agent decides the run's
// outcome only once the job is known to take it, and outside the lock, since
// it is the caller's code.
func (s *Server) followUp(c *call) reply {
	prompt, forced, rep, ok := readRun(c)
	if !ok {
		return rep
	}
	id := c.r.PathValue("id")
	st := s.jobs
	st.mu.RLock()
	_, rep, ok = followable(st.lookup(id, c.project))
	st.mu.RUnlock()
	if !ok {
		return rep
	}
	outcome := s.chooseOutcome(prompt, forced)

	st.mu.Lock()
	defer st.mu.Unlock()
	j, rep, ok := followable(st.lookup(id, c.project)) // archived meanwhile?
	if !ok {
		return rep
	}
	if _, pr := j.view(c.now); pr {
		j.hadPR = true // the pull request stays open whatever the next run does
	}
	j.followUps = append(j.followUps, prompt)
	st.startRun(j, outcome, c.now, s.cfg.jobDuration)
	return jobReply(http.StatusOK, j, c.now)
}

// followable says whether j can take a follow-up, and if not the answer.
func followable(j *job) (*job, reply, bool) {
	switch {
	case j == nil:
		return nil, jobNotFound(), false
	case j.archived:
		return nil, errorReply(http.StatusBadRequest, "Invalid request", "the job is archived and cannot take follow-up messages"), false
	}
	return j, reply{}, true
}

func jobNotFound() reply {
	return errorReply(http.StatusNotFound, "Job not found")
}

func jobReply(status int, j *job, now time.Time) reply {
	buf := getBuf()
	*buf = j.appendJSON(*buf, now)
	return reply{status: status, body: *buf, buf: buf}
}

// chooseOutcome decides how a run ends. The override header wins, then an
// outcome set over the control API, then the agent function; the default is
// the happy path, a pull request.
func (s *Server) chooseOutcome(prompt string, forced Outcome) Outcome {
	if forced != "" {
		return forced
	}
	if o := s.defaultOutcome.Load(); o != nil {
		return *o
	}
	if s.cfg.agent != nil {
		if o := s.cfg.agent(prompt); o.valid() {
			return o
		}
	}
	return OutcomePullRequest
}

func outcomeOverride(r *http.Request) (Outcome, reply, bool) {
	values := r.Header[OutcomeHeader]
	if len(values) == 0 {
		return "", reply{}, true
	}
	o := Outcome(strings.TrimSpace(strings.ToLower(values[0])))
	if !o.valid() {
		return "", errorReply(http.StatusBadRequest, "Invalid "+OutcomeHeader+" header",
			"expected one of "+string(OutcomePullRequest)+", "+string(OutcomeNoChange)+", "+string(OutcomeFailed)+"; got "+strconv.Quote(values[0])), false
	}
	return o, reply{}, true
}

// readPrompt reads and validates {"prompt": "..."}. The body is read through
// http.MaxBytesReader, so an oversized body costs at most the limit.
func readPrompt(c *call) (string, reply, bool) {
	if c.r.ContentLength > maxBodyBytes {
		return "", tooLarge(), false
	}
	buf := getBuf()
	defer putBuf(buf)
	body, err := readAll(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes), *buf)
	*buf = body
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return "", tooLarge(), false
		}
		return "", invalidBody("the request body could not be read: " + err.Error()), false
	}
	if len(body) == 0 {
		return "", invalidBody("the request body is empty; send {\"prompt\": \"...\"}"), false
	}
	// Keys are read exactly as the schema spells them: encoding/json would
	// let {"Prompt": "x"} or {"prompt": "", "PROMPT": "x"} through.
	if !utf8.Valid(body) {
		return "", invalidBody("the request body is not valid UTF-8"), false
	}
	// A repeated key loses one of its values whatever the parser keeps.
	if err := checkKeys(json.NewDecoder(bytes.NewReader(body)), nil, "", false, 0); err != nil && !isSyntaxError(err) {
		return "", invalidBody(err.Error()), false
	}
	var payload map[string]json.RawMessage
	if err := json.Unmarshal(body, &payload); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return "", invalidBody("the request body must be a JSON object with a prompt"), false
		}
		return "", invalidBody("the request body is not valid JSON: " + err.Error()), false
	}
	for key := range payload {
		if key != "prompt" && strings.EqualFold(key, "prompt") {
			return "", invalidBody(strconv.Quote(key) + ": unknown field; field names are case-sensitive: send \"prompt\""), false
		}
	}
	raw := payload["prompt"]
	if len(raw) == 0 || string(raw) == "null" {
		return "", invalidBody("prompt: required"), false
	}
	var prompt string
	if err := json.Unmarshal(raw, &prompt); err != nil {
		return "", invalidBody("prompt: must be a string"), false
	}
	if prompt == "" {
		return "", invalidBody("prompt: must not be empty"), false
	}
	return prompt, reply{}, true
}

// readAll is io.ReadAll into a reusable buffer.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func invalidBody(detail string) reply {
	return errorReply(http.StatusBadRequest, "Invalid request body", detail)
}

func tooLarge() reply {
	return errorReply(http.StatusRequestEntityTooLarge, "Request body too large",
		"the limit is "+strconv.Itoa(maxBodyBytes)+" bytes")
}
