package mintlify

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxDownloadResumes is how many times DownloadStaticExport picks a dropped
// transfer up again before giving up.
const maxDownloadResumes = 3

// downloadBufferSize is the one buffer a download copies through: large
// enough to keep up with a loopback or datacenter link, small enough that a
// multi-gigabyte bundle costs no more memory than a small one.
const downloadBufferSize = 256 << 10

// DownloadStaticExport writes the bundle's tar.gz to w and returns the
// bytes written. It fails unless they are exactly b.SizeBytes.
//
// The bundle lives on a storage host, not the API: the request carries
// neither the API key nor any Authorization header (the link's signature
// is the credential, and the host refuses a second one), goes through the
// client's HTTP client without its retry layer, and never quotes the link
// in an error. It streams through one fixed 256 KiB buffer, so a bundle of
// several gigabytes needs no more memory than a small one.
//
// The link must be https when the API is (an http link would send the
// signature and the archive in clear text), and must not hold the API key,
// as it is or percent-encoded once or twice. The download follows no
// redirect and sends no Referer, whatever the client's http.Client says:
// a redirect is an error.
//
// A transfer that breaks (a dropped connection, a 5xx or 429 from the host,
// a stall) is resumed where it stopped with a Range request, at most 3
// times, after the client's retry wait (or the host's Retry-After, up to
// the maximum wait); bytes already written are not written again. A resume
// asks for the rest of the same object: it carries If-Range with the first
// answer's strong ETag, else its Last-Modified, and the partial answer must
// name the same one. A host that names neither is not resumed (its first
// cut fails the download), and one that answers the resume with the whole
// file (200: the object changed, or it cannot resume) or with another
// validator fails it too: w already holds the start, and splicing two
// objects would make an archive that is neither. A bundle without a link or whose link
// has expired fails with ErrInvalidInput before any request: call
// BundleStaticExport for a fresh one. So does a link that holds the API key
// (a proxy's echo): it would hand the key to the storage host. An HTTP
// error from the host matches the sentinels by status (a 403 for an expired
// or altered link is ErrForbidden). The download stops promptly when ctx
// ends.
//
// The client's http.Client Timeout, if any, bounds each request including
// its body: leave it unset for large bundles and use ctx instead. A
// Transport of your own (WithHTTPClient) that adds credentials to every
// request would add them here too.
func (c *Client) DownloadStaticExport(ctx context.Context, b *StaticExportBundle, w io.Writer) (int64, error) {
	if err := c.ready(ctx); err != nil {
		return 0, err
	}
	switch {
	case c.http == nil:
		return 0, invalidf("nil or zero Client: make one with NewClient")
	case b == nil:
		return 0, invalidf("nil bundle")
	case w == nil:
		return 0, invalidf("nil writer")
	case b.URL == "":
		return 0, invalidf("the bundle has no link: call BundleStaticExport")
	case b.SizeBytes < 0:
		return 0, invalidf("bundle size %d is negative", b.SizeBytes)
	case !b.ExpiresAt.IsZero() && !time.Now().Before(b.ExpiresAt):
		return 0, invalidf("the bundle link expired at %s: call BundleStaticExport for a fresh one",
			b.ExpiresAt.UTC().Format(time.RFC3339))
	}
	link, err := parseBundleLink(b.URL)
	if err == nil {
		err = c.checkBundleLink(link)
	}
	if err != nil {
		return 0, invalidf("%v", err)
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("mintlify: downloading the bundle: nothing sent: %w", err)
	}

	// A copy of the client's http.Client: its transport and timeout, but no
	// cookie jar (cookies of the API have no business on the storage host).
	hc := *c.http
	hc.Jar = nil
	d := &download{
		ctx: ctx, hc: &hc, link: link, size: b.SizeBytes, w: w, userAgent: c.userAgent,
		minWait: c.retryWaitMin, maxWait: c.retryWaitMax,
	}
	n, err := d.run()
	return n, c.redact(err) // the key is never sent there, but a writer's error might quote it
}

// download is one DownloadStaticExport in progress.
type download struct {
	ctx              context.Context
	hc               *http.Client
	link             *url.URL
	size             int64
	w                io.Writer
	userAgent        []string
	minWait, maxWait time.Duration

	written int64
	buf     []byte
	// validator names the object the first answer began, as If-Range
	// takes it: its strong ETag, else its Last-Modified ("" for neither);
	// validatorField is the header it came in.
	validator, validatorField string
}

func (d *download) run() (int64, error) {
	d.buf = make([]byte, downloadBufferSize)
	for resumes := 0; ; resumes++ {
		err := d.attempt()
		if err == nil {
			return d.written, nil
		}
		if d.written > 0 && d.validator == "" && !errors.As(err, new(*fatalDownloadError)) {
			err = dlFatal("%w; the storage host names the object by neither an ETag nor a Last-Modified, "+
				"so a resumed download could join two different objects: it is not resumed", err)
		}
		var f *fatalDownloadError
		if errors.As(err, &f) || resumes >= maxDownloadResumes || d.ctx.Err() != nil ||
			!sleep(d.ctx, d.wait(resumes, err)) {
			return d.written, d.failed(err, resumes)
		}
	}
}

// failed says how far the download got and why it stopped; a context that
// ended is always in the chain, whatever failure it caused.
func (d *download) failed(err error, resumes int) error {
	prefix := fmt.Sprintf("mintlify: downloading the bundle: %d of %d bytes written", d.written, d.size)
	if resumes > 0 {
		prefix += fmt.Sprintf(" in %d requests", resumes+1)
	}
	if ctxErr := d.ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return fmt.Errorf("%s: %w (%w)", prefix, ctxErr, err)
	}
	return fmt.Errorf("%s: %w", prefix, err)
}

// wait is the pause before resume n (from 0) after err: doubling from the
// client's minimum retry wait, or the host's Retry-After if longer, capped
// by the maximum.
func (d *download) wait(n int, err error) time.Duration {
	w := d.minWait
	for i := 0; i < n && w < d.maxWait; i++ {
		w *= 2
	}
	if ae := (*APIError)(nil); errors.As(err, &ae) {
		w = max(w, ae.RetryAfter)
	}
	return min(w, d.maxWait)
}

// fatalDownloadError is a failure that resuming cannot fix.
type fatalDownloadError struct{ err error }

func (e *fatalDownloadError) Error() string { return e.err.Error() }
func (e *fatalDownloadError) Unwrap() error { return e.err }

func dlFatal(format string, args ...any) error {
	return &fatalDownloadError{fmt.Errorf(format, args...)}
}

// attempt sends one request, from d.written on, and copies its body to w.
// It returns nil once exactly d.size bytes are written, a fatalDownloadError
// when trying again cannot help, another error when a resume may.
func (d *download) attempt() error {
	req, err := http.NewRequestWithContext(d.ctx, http.MethodGet, d.link.String(), nil)
	if err != nil {
		return dlFatal("building the request for the bundle link")
	}
	// Nothing but these headers: above all no Authorization. Identity
	// encoding keeps the transport from unzipping a host's gzip encoding,
	// which would change the bytes and their count.
	req.Header["User-Agent"] = d.userAgent
	req.Header["Accept-Encoding"] = []string{"identity"}
	resuming := d.written > 0
	if resuming {
		req.Header["Range"] = []string{"bytes=" + strconv.FormatInt(d.written, 10) + "-"}
		req.Header["If-Range"] = []string{d.validator}
	}

	resp, err := d.hc.Do(req)
	if err != nil {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err // its text holds the link
		}
		if d.ctx.Err() != nil {
			return d.ctx.Err()
		}
		return fmt.Errorf("requesting the bundle link: %w", redactLink(err, d.link))
	}
	defer resp.Body.Close()
	defer closeOnDone(d.ctx, resp.Body)()

	switch {
	case resp.StatusCode == http.StatusOK && resuming:
		return dlFatal("the storage host answered a Range request with the whole bundle (HTTP 200): the object changed " +
			"(If-Range) or the host cannot resume, and the start is already written")
	case resp.StatusCode == http.StatusOK:
		if resp.ContentLength >= 0 && resp.ContentLength != d.size {
			return dlFatal("the storage host sends %d bytes, the bundle has %d", resp.ContentLength, d.size)
		}
		d.validator, d.validatorField = objectValidator(resp.Header)
	case resp.StatusCode == http.StatusPartialContent && resuming:
		if got := resp.Header.Get(d.validatorField); got != d.validator {
			return dlFatal("the storage host's partial answer is another object (%s %s, the download began %s): "+
				"the start is already written", d.validatorField, hostText(strconv.Quote(got), 80), hostText(strconv.Quote(d.validator), 80))
		}
		if err := d.checkContentRange(resp.Header.Get("Content-Range")); err != nil {
			return err
		}
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusRequestTimeout:
		return d.hostError(resp) // may pass: resume
	case resp.StatusCode >= 300 && resp.StatusCode <= 399:
		// The client follows no redirect (refuseRedirect): the link would
		// go to another host, in Referer too.
		return dlFatal("the storage host redirects (HTTP %d), and a download follows no redirect: %w",
			resp.StatusCode, unprefixed{d.hostError(resp)})
	default:
		return &fatalDownloadError{d.hostError(resp)}
	}
	return d.copyBody(resp.Body)
}

// objectValidator is what names an object for If-Range: its ETag when
// strong (a weak one cannot be used), else its Last-Modified; "" when it
// has neither.
func objectValidator(h http.Header) (value, field string) {
	if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
		return etag, "ETag"
	}
	if lm := h.Get("Last-Modified"); lm != "" {
		return lm, "Last-Modified"
	}
	return "", ""
}

// checkContentRange accepts "bytes FROM-END/SIZE" from where the download
// stands to the bundle's end.
func (d *download) checkContentRange(v string) error {
	var from, end int64
	var total string
	_, err := fmt.Sscanf(strings.Replace(v, "/", " ", 1), "bytes %d-%d %s", &from, &end, &total)
	if err != nil {
		return dlFatal("the storage host's partial answer has no readable Content-Range")
	}
	if from != d.written || end != d.size-1 || (total != "*" && total != strconv.FormatInt(d.size, 10)) {
		return dlFatal("the storage host sends bytes %d-%d of %s, the download needs %d-%d of %d",
			from, end, total, d.written, d.size-1, d.size)
	}
	return nil
}

// copyBody copies the rest of the bundle to w: exactly d.size-d.written
// bytes, then the body must end.
func (d *download) copyBody(body io.Reader) error {
	want := d.size - d.written
	for want > 0 {
		n, err := body.Read(d.buf[:min(int64(len(d.buf)), want)])
		if n > 0 {
			m, werr := d.w.Write(d.buf[:n])
			if m < 0 || m > n {
				// A writer breaking io.Writer's contract: the count of
				// bytes written, and any resume from it, would be wrong.
				return dlFatal("writing: the writer reports %d bytes written of %d", m, n)
			}
			d.written += int64(m)
			want -= int64(m)
			if werr == nil && m < n {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				return &fatalDownloadError{fmt.Errorf("writing: %w", werr)}
			}
		}
		switch {
		case err == io.EOF && want > 0:
			return fmt.Errorf("the storage host's answer ended %d bytes short: %w", want, io.ErrUnexpectedEOF)
		case err == io.EOF:
			return nil
		case err != nil:
			if d.ctx.Err() != nil {
				return d.ctx.Err()
			}
			return fmt.Errorf("reading the bundle: %w", redactLink(err, d.link))
		}
	}
	// All bytes are in: anything more means the host's file is not the
	// bundle the API described.
	var one [1]byte
	for {
		n, err := body.Read(one[:])
		if n > 0 {
			return dlFatal("the storage host sends more than the bundle's %d bytes", d.size)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if d.ctx.Err() != nil {
				return d.ctx.Err()
			}
			// The bytes are all written; a failure reading past them does
			// not change them.
			return nil
		}
	}
}

// hostError describes a refusal by the storage host as an *APIError, so
// that errors.Is works by status as for the API. Only a short code or
// message is kept from its body, and only when it does not hold any part of
// the link: hosts echo the request in their errors.
func (d *download) hostError(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	msg := hostMessage(body)
	if msg != "" && linkLeaks(msg, d.link) {
		msg = ""
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	ae := &APIError{StatusCode: resp.StatusCode, Message: msg}
	ae.RetryAfter, _ = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	return fmt.Errorf("the storage host refused the bundle link: %w", unprefixed{ae})
}

// hostMessage reads an error body the way storage hosts write them: S3's
// XML <Code> and <Message>, or a JSON {"error": ...}. Anything else is
// dropped, as a page of HTML says nothing useful.
func hostMessage(body []byte) string {
	var s3 struct {
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
	}
	var js struct {
		Error   any    `json:"error"`
		Message string `json:"message"`
	}
	var msg string
	switch {
	case lenientXML(body, &s3) == nil && (s3.Code != "" || s3.Message != ""):
		msg = strings.TrimSpace(s3.Code + ": " + s3.Message)
		msg = strings.Trim(msg, ": ")
	case json.Unmarshal(body, &js) == nil:
		msg, _ = js.Error.(string)
		if msg == "" {
			msg = js.Message
		}
	}
	return hostText(msg, 200)
}

// lenientXML decodes XML as hosts write it, a raw "&" in an echoed URL
// included.
func lenientXML(body []byte, v any) error {
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	return dec.Decode(v)
}

// hostText keeps at most limit bytes of s's printable ASCII, so a host's
// message cannot smuggle control characters or lines into an error.
func hostText(s string, limit int) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < limit; i++ {
		if ch := s[i]; ch >= ' ' && ch < 0x7f {
			b.WriteByte(ch)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String())
}

// linkLeaks reports whether s holds the link or a piece of its query (the
// signature) or path.
func linkLeaks(s string, link *url.URL) bool {
	if strings.Contains(s, link.String()) || (link.RawQuery != "" && strings.Contains(s, link.RawQuery)) {
		return true
	}
	for _, vs := range link.Query() {
		for _, v := range vs {
			if len(v) >= 6 && strings.Contains(s, v) {
				return true
			}
		}
	}
	return len(link.Path) > 1 && strings.Contains(s, link.EscapedPath())
}

// checkBundleLink refuses a link that would hurt to follow: plain http
// from an API reached over https (the signature and the archive would
// travel in clear text), or one holding the API key, as it is or
// percent-encoded once or twice (the host decodes what it is sent; a
// proxy may have encoded what it echoed). Its errors never show the link.
func (c *Client) checkBundleLink(link *url.URL) error {
	if link.Scheme == "http" && strings.HasPrefix(c.baseURL, "https:") {
		return errors.New("the bundle link is plain http while the API is https: its signature and the archive would travel in clear text")
	}
	for s, i := link.String(), 0; i < 3; s, i = percentDecode(s), i+1 {
		if c.scrub(s, false) != s {
			return errors.New("the bundle link holds the API key, which must never reach the storage host")
		}
	}
	return nil
}

// percentDecode decodes every %XX escape of s and keeps anything else as
// it is (a lone % included), so that a link can be read the way a host
// that decodes it would.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// redactLink keeps an error's chain but hides any copy of the link's query
// in its text.
func redactLink(err error, link *url.URL) error {
	if err == nil || !linkLeaks(err.Error(), link) {
		return err
	}
	return &linkRedactedError{err: err}
}

type linkRedactedError struct{ err error }

func (e *linkRedactedError) Error() string {
	return "a network error whose text quotes the bundle link"
}
func (e *linkRedactedError) Unwrap() error { return e.err }
