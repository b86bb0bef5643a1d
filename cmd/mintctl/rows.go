package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	mintlify "github.com/docsagent/mintlify-go"
)

// rowWriter writes rows as csv, jsonl or json, one at a time: nothing of
// an export is held but the row in hand.
type rowWriter struct {
	w       io.Writer
	format  string
	columns []column
	csv     *csv.Writer
	header  bool // a CSV header is still to be written
	// escapeFormulas starts a CSV text cell that a spreadsheet would run
	// as a formula with a quote (--escape-formulas).
	escapeFormulas bool
	rows           int
	rec            []string
	buf            []byte
}

func newRowWriter(w io.Writer, format string, columns []column, header bool) *rowWriter {
	rw := &rowWriter{w: w, format: format, columns: columns, header: header && format == "csv", rec: make([]string, len(columns))}
	if format == "csv" {
		rw.csv = csv.NewWriter(w)
	}
	return rw
}

// writeAll writes every row of the walk and returns how many it wrote and
// the walk's error, if any. The CSV header and the JSON array's opening are
// written first, so that an export that stops at once still leaves a file
// that a resumed run appends to correctly.
//
// Input the SDK refuses before any request (ErrInvalidInput as the walk's
// first item) writes nothing at all.
func (rw *rowWriter) writeAll(rows iter.Seq2[[]any, error]) (int, error) {
	opened := false
	for row, err := range rows {
		if !opened {
			if err != nil && errors.Is(err, mintlify.ErrInvalidInput) {
				return 0, err
			}
			opened = true
			if err := rw.open(); err != nil {
				return 0, err
			}
		}
		if err != nil {
			return rw.rows, err
		}
		if err := rw.write(row); err != nil {
			return rw.rows, err
		}
	}
	if !opened {
		return 0, rw.open() // an empty export: the header alone, or []
	}
	return rw.rows, nil
}

func (rw *rowWriter) open() error {
	switch {
	case rw.header:
		names := make([]string, len(rw.columns))
		for i, c := range rw.columns {
			names[i] = c.name
		}
		rw.header = false
		return rw.csv.Write(names)
	case rw.format == "json":
		_, err := io.WriteString(rw.w, "[")
		return err
	}
	return nil
}

func (rw *rowWriter) write(row []any) error {
	rw.rows++
	switch rw.format {
	case "csv":
		for i, v := range row {
			rw.rec[i] = csvValue(v)
			if s, ok := v.(string); ok && rw.escapeFormulas && isFormula(s) {
				rw.rec[i] = "'" + s
			}
		}
		if err := rw.csv.Write(rw.rec); err != nil {
			return err
		}
		rw.csv.Flush() // into the buffered writer: the row is kept if the walk stops
		return rw.csv.Error()
	default:
		b := rw.buf[:0]
		if rw.format == "json" {
			if rw.rows > 1 {
				b = append(b, ',')
			}
			b = append(b, '\n')
		}
		b = append(b, '{')
		for i, v := range row {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, rw.columns[i].name)
			b = append(b, ':')
			if rw.columns[i].nullable && isZero(v) {
				b = append(b, "null"...)
				continue
			}
			enc, err := json.Marshal(jsonValue(v))
			if err != nil {
				return fmt.Errorf("encoding %s: %w", rw.columns[i].name, err)
			}
			b = append(b, enc...)
		}
		b = append(b, '}')
		if rw.format == "jsonl" {
			b = append(b, '\n')
		}
		rw.buf = b
		_, err := rw.w.Write(safeJSON(b)) // the text inside may be read by a CI runner
		return err
	}
}

// close ends a complete export: the JSON array's closing bracket. An
// export that stopped is not closed, so that no parser takes it for whole.
func (rw *rowWriter) close() error {
	if rw.format == "json" {
		_, err := io.WriteString(rw.w, "\n]\n")
		return err
	}
	return nil
}

// isFormula reports whether a spreadsheet would take a text cell for a
// formula (OWASP's list of leading characters for CSV injection). Only text
// is checked: a number such as -3 is written as a number.
func isFormula(s string) bool {
	return s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0]))
}

// apiTime is a row's timestamp as the API wrote it
// ("2025-01-02T03:04:05.000Z" stays so), "" for null or a time the SDK
// could not read.
type apiTime string

// timeAsSent is the timestamp named field of row as the API wrote it: the
// SDK writes a row's JSON with the API's text of its times.
func timeAsSent(row json.Marshaler, field string) apiTime {
	b, err := row.MarshalJSON()
	var fields map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &fields) != nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(fields[field], &s) // null, absent: ""
	return apiTime(s)
}

func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case apiTime:
		return v == ""
	case *bool:
		return v == nil
	}
	return false
}

func jsonValue(v any) any {
	if t, ok := v.(apiTime); ok && t == "" {
		return nil
	}
	return v
}

// orEmpty makes a nil slice empty, so that JSON shows [] as the API sends
// it, not null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func csvValue(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case apiTime:
		return string(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case *bool:
		if v == nil {
			return ""
		}
		return strconv.FormatBool(*v)
	case []string:
		b, _ := json.Marshal(v)
		return string(b)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
