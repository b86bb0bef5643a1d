package main

import (
	"strings"
	"unicode/utf8"
)

// maxBranch is the longest branch name mintctl sends, in bytes: a common
// file system's limit on one name, which git refs are stored as.
const maxBranch = 255

// checkBranch refuses a preview branch git would refuse (git
// check-ref-format --branch), before anything is sent: the API allows 5
// previews a minute, and a branch that cannot exist only spends one. The
// rules, from git-check-ref-format(1):
//
//   - no component (between slashes) begins with "." or ends with ".lock";
//   - no "..", no "@{", no "//", and it is not "@";
//   - no control character, space, ~ ^ : ? * [ or \;
//   - it does not begin or end with "/", nor end with ".";
//   - --branch also refuses a name beginning with "-", and "HEAD".
//
// mintctl adds: not empty, at most 255 bytes, and valid UTF-8 (JSON would
// send another name).
func checkBranch(b string) error {
	why := branchProblem(b)
	if why == "" {
		return nil
	}
	if b == "" {
		return usageErrorf("empty branch: give the name of the branch to preview")
	}
	return usageErrorf("branch %q is not a name git accepts: %s", b, why)
}

func branchProblem(b string) string {
	switch {
	case b == "":
		return "it is empty"
	case len(b) > maxBranch:
		return "it is longer than 255 bytes"
	case !utf8.ValidString(b):
		return "it is not valid UTF-8"
	case b == "@":
		return `it is "@"`
	case b == "HEAD":
		return `"HEAD" is not a branch`
	case strings.HasPrefix(b, "-"):
		return `it begins with "-"`
	case strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/"):
		return `it begins or ends with "/"`
	case strings.HasSuffix(b, "."):
		return `it ends with "."`
	case strings.Contains(b, "//"):
		return `it holds "//"`
	case strings.Contains(b, ".."):
		return `it holds ".."`
	case strings.Contains(b, "@{"):
		return `it holds "@{"`
	}
	for _, r := range b {
		switch {
		case r < 0x20 || r == 0x7f:
			return "it holds a control character"
		case r == ' ':
			return "it holds a space"
		case strings.ContainsRune("~^:?*[\\", r):
			return "it holds " + string(r)
		}
	}
	for _, c := range strings.Split(b, "/") {
		switch {
		case strings.HasPrefix(c, "."):
			return `a component begins with "."`
		case strings.HasSuffix(c, ".lock"):
			return `a component ends with ".lock"`
		}
	}
	return ""
}
