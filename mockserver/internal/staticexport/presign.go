package staticexport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Signer mints and checks presigned bundle links. Each server has its own
// secret, so a link from one server is altered for every other.
type Signer struct{ secret []byte }

// NewSigner returns a Signer with the given secret.
func NewSigner(secret []byte) *Signer { return &Signer{secret: append([]byte(nil), secret...)} }

// Link is what a presigned URL carries.
type Link struct {
	JobID   string
	Size    int64 // the bundle's length: the real archive or a padded one
	Expires time.Time
}

const bundlePrefix = "/bundles/"

// Sign returns the path and query of a presigned link, such as
// /bundles/se_x/bundle.tar.gz?expires=1700000000&size=1024&signature=....
func (s *Signer) Sign(l Link) string {
	path := bundlePrefix + l.JobID + "/bundle.tar.gz"
	exp := strconv.FormatInt(l.Expires.Unix(), 10)
	size := strconv.FormatInt(l.Size, 10)
	q := url.Values{"expires": {exp}, "size": {size}, "signature": {s.mac(path, exp, size)}}
	return path + "?" + q.Encode()
}

func (s *Signer) mac(path, exp, size string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(path + "\n" + exp + "\n" + size))
	return hex.EncodeToString(m.Sum(nil))
}

// Why Verify refuses a link.
var (
	ErrAltered = errors.New("the link's signature does not match: it was altered or minted by another server")
	ErrExpired = errors.New("the link has expired; ask the bundle route for a fresh one")
)

// Verify checks a request's path and query against their signature and the
// expiry at now.
func (s *Signer) Verify(path string, query url.Values, now time.Time) (Link, error) {
	rest, ok := strings.CutPrefix(path, bundlePrefix)
	jobID, file, _ := strings.Cut(rest, "/")
	exp, size, sig := query.Get("expires"), query.Get("size"), query.Get("signature")
	if !ok || jobID == "" || file != "bundle.tar.gz" || len(query["signature"]) != 1 ||
		len(query["expires"]) != 1 || len(query["size"]) != 1 ||
		!hmac.Equal([]byte(sig), []byte(s.mac(path, exp, size))) {
		return Link{}, ErrAltered
	}
	expUnix, err1 := strconv.ParseInt(exp, 10, 64)
	n, err2 := strconv.ParseInt(size, 10, 64)
	if err1 != nil || err2 != nil || n < 0 {
		return Link{}, ErrAltered
	}
	l := Link{JobID: jobID, Size: n, Expires: time.Unix(expUnix, 0)}
	if !now.Before(l.Expires) {
		return l, ErrExpired
	}
	return l, nil
}
