package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The results of a check, an API and a whole report.
const (
	resultMatches = "matches"
	resultDiffers = "differs"
	resultRefused = "refused" // the key was refused (401 or 403)
	resultSkipped = "skipped"
)

// doctorReport is what mintctl doctor found, as --json prints it. It
// holds no key, and its server text is scrubbed of keys and printable.
type doctorReport struct {
	Tool   string       `json:"tool"`
	Result string       `json:"result"`
	APIs   []*apiReport `json:"apis"`
}

// apiReport is one API, reached with one key.
type apiReport struct {
	API      string         `json:"api"` // admin, assistant, index
	Name     string         `json:"name"`
	Variable string         `json:"variable"`          // the key's environment variable
	KeyKind  string         `json:"keyKind,omitempty"` // by its prefix: mint_, mint_dsc_, mint_us_
	BaseURL  string         `json:"baseURL"`
	Result   string         `json:"result"`
	Note     string         `json:"note,omitempty"`
	Checks   []*checkReport `json:"checks,omitempty"`
}

// checkReport is one request and what its answer showed.
type checkReport struct {
	Name        string       `json:"name"`
	Request     string       `json:"request"` // the documented route, "GET /v1/analytics/{projectId}/visitors"
	Status      int          `json:"status,omitempty"`
	Result      string       `json:"result"`
	Differences []difference `json:"differences,omitempty"`
	Notes       []note       `json:"notes,omitempty"`

	want expectation
}

// note is something a check saw that is not a difference: mintctl's
// words, and the server's value they are about, if any.
type note struct {
	Text  string `json:"text"`
	Value string `json:"value,omitempty"`
}

// difference is one way the answer differs from what the SDK assumes.
type difference struct {
	Kind   string `json:"kind"`
	Member string `json:"member,omitempty"` // the member's path, "visitors[].path"
	Detail string `json:"detail,omitempty"` // mintctl's words
	Value  string `json:"value,omitempty"`  // what the service sent, cut short
}

func (r *apiReport) add(name string, want expectation) *checkReport {
	c := &checkReport{Name: name, Request: want.method + " " + want.route, Result: resultMatches, want: want}
	r.Checks = append(r.Checks, c)
	return c
}

func (c *checkReport) differ(kind, member, detail, value string) {
	c.Differences = append(c.Differences, difference{Kind: kind, Member: member, Detail: detail, Value: value})
	if c.Result != resultRefused {
		c.Result = resultDiffers
	}
}

func (c *checkReport) note(text, value string) {
	c.Notes = append(c.Notes, note{Text: text, Value: value})
}

func (c *checkReport) skip(why string) {
	c.Result = resultSkipped
	c.note(why, "")
}

// settle gives the API the worst result of its checks.
func (r *apiReport) settle() {
	if r.Result == resultSkipped {
		return
	}
	r.Result = resultMatches
	for _, c := range r.Checks {
		r.Result = worse(r.Result, c.Result)
	}
}

// settle gives the report the worst result of its APIs.
func (d *doctorReport) settle() {
	d.Result = resultMatches
	for _, a := range d.APIs {
		d.Result = worse(d.Result, a.Result)
	}
}

// worse is the worse of two results: refused, then differs, then the
// rest (a skipped check changes nothing).
func worse(a, b string) string {
	rank := func(r string) int {
		switch r {
		case resultRefused:
			return 2
		case resultDiffers:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// print writes the report on stdout, as Markdown or JSON, and the Markdown
// to the step summary when the runner gives one.
func (d *doctor) print() error {
	md := d.report.markdown()
	if path, _ := d.a.lookupEnv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := d.a.appendStepFile(path, d.scrub(md, false)); err != nil {
			d.a.warnf("the report was not written to $GITHUB_STEP_SUMMARY: %v", err)
		}
	}
	if d.asJSON {
		b, err := json.MarshalIndent(d.report, "", "  ")
		if err != nil {
			return err
		}
		_, err = d.a.stdout.Write(safeJSON(append(b, '\n')))
		return err
	}
	_, err := fmt.Fprint(d.a.stdout, md)
	return err
}

// markdown renders the report. Every text that came from a server is
// already printable and free of keys; here it goes into code spans, where
// Markdown and HTML mean nothing.
func (d *doctorReport) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# mintctl doctor: %s\n\n", d.Result)
	fmt.Fprintf(&b, "%s compared the service with what this SDK and its mock server assume.\n", d.Tool)
	for _, a := range d.APIs {
		fmt.Fprintf(&b, "\n## %s: %s\n", a.Name, a.Result)
		if a.KeyKind != "" {
			fmt.Fprintf(&b, "\nKey: %s, kind %s, at %s\n", a.Variable, code(a.KeyKind), code(a.BaseURL))
		}
		if a.Note != "" {
			fmt.Fprintf(&b, "\n%s\n", a.Note)
		}
		if len(a.Checks) > 0 {
			b.WriteString("\n")
		}
		for _, c := range a.Checks {
			status := ""
			if c.Status != 0 {
				status = fmt.Sprintf(", %d", c.Status)
			}
			fmt.Fprintf(&b, "- %s (%s%s): **%s**\n", c.Name, code(c.Request), status, c.Result)
			for _, n := range c.Notes {
				if n.Value != "" {
					fmt.Fprintf(&b, "  - %s: %s\n", n.Text, code(n.Value))
				} else {
					fmt.Fprintf(&b, "  - %s\n", n.Text)
				}
			}
			for _, f := range c.Differences {
				line := "  - " + f.Kind
				if f.Member != "" {
					line += " " + code(f.Member)
				}
				if f.Detail != "" {
					line += ": " + f.Detail
				}
				if f.Value != "" {
					line += ": " + code(f.Value)
				}
				b.WriteString(line + "\n")
			}
		}
	}
	if d.Result == resultDiffers {
		b.WriteString("\nTo report a difference, open an issue with `mintctl doctor --json` attached (it holds no key).\n")
	}
	return b.String()
}

// code is s (printable already) as a Markdown code span, fenced with more
// backticks than any run in s, so nothing in s ends it early.
func code(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}
