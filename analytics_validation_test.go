package mintlify_test

import (
	"context"
	"iter"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go"
)

// countErrs walks seq and returns the errors it yielded.
func countErrs[T any](seq iter.Seq2[T, error]) []error {
	var errs []error
	for _, err := range seq {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// TestAnalyticsValidationSendsNoRequest: input the API would refuse fails
// with ErrInvalidInput from GetX and once from each iterator, and no
// request leaves.
func TestAnalyticsValidationSendsNoRequest(t *testing.T) {
	t.Parallel()
	day := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	// each runs GetX and both iterators, returning their errors.
	type each func(c *mintlify.Client) []error
	views := func(p mintlify.ViewsParams) each {
		return func(c *mintlify.Client) []error {
			_, err := c.GetViews(ctx, p)
			return append(append([]error{err}, countErrs(c.ViewPages(ctx, p))...), countErrs(c.Views(ctx, p))...)
		}
	}
	searches := func(p mintlify.SearchesParams) each {
		return func(c *mintlify.Client) []error {
			_, err := c.GetSearches(ctx, p)
			return append(append([]error{err}, countErrs(c.SearchPages(ctx, p))...), countErrs(c.Searches(ctx, p))...)
		}
	}
	feedback := func(p mintlify.FeedbackParams) each {
		return func(c *mintlify.Client) []error {
			_, err := c.GetFeedback(ctx, p)
			return append(append([]error{err}, countErrs(c.FeedbackPages(ctx, p))...), countErrs(c.Feedback(ctx, p))...)
		}
	}
	byPage := func(p mintlify.FeedbackByPageParams) each {
		return func(c *mintlify.Client) []error {
			_, err := c.GetFeedbackByPage(ctx, p)
			return []error{err, err, err}
		}
	}
	conversations := func(p mintlify.ConversationsParams) each {
		return func(c *mintlify.Client) []error {
			_, err := c.GetConversations(ctx, p)
			return append(append([]error{err}, countErrs(c.ConversationPages(ctx, p))...), countErrs(c.Conversations(ctx, p))...)
		}
	}
	thread := func(id string) each {
		return func(c *mintlify.Client) []error {
			_, err := c.GetThread(ctx, id)
			return []error{err, err, err}
		}
	}
	callers := func(p mintlify.CallerStatsParams) each {
		return func(c *mintlify.Client) []error {
			_, err := c.GetCallerStats(ctx, p)
			return []error{err, err, err}
		}
	}
	reversed := struct{ from, to time.Time }{day, day.AddDate(0, 0, -1)}
	tests := []struct {
		name string
		run  each
	}{
		{"views limit 251", views(mintlify.ViewsParams{Limit: 251})},
		{"views negative limit", views(mintlify.ViewsParams{Limit: -1})},
		{"views negative offset", views(mintlify.ViewsParams{Offset: -1})},
		{"views empty range", views(mintlify.ViewsParams{DateFrom: day, DateTo: day})},
		{"searches limit 101", searches(mintlify.SearchesParams{Limit: 101})},
		{"searches reversed range", searches(mintlify.SearchesParams{DateFrom: reversed.from, DateTo: reversed.to})},
		{"feedback limit 101", feedback(mintlify.FeedbackParams{Limit: 101})},
		{"feedback unknown source", feedback(mintlify.FeedbackParams{Source: "email"})},
		{"feedback source in the wrong case", feedback(mintlify.FeedbackParams{Source: "Contextual"})},
		{"feedback unknown status", feedback(mintlify.FeedbackParams{Statuses: []mintlify.FeedbackStatus{"pending", "open"}})},
		{"feedback empty status", feedback(mintlify.FeedbackParams{Statuses: []mintlify.FeedbackStatus{""}})},
		{"feedback a comma list as one status", feedback(mintlify.FeedbackParams{Statuses: []mintlify.FeedbackStatus{"pending,resolved"}})},
		{"by-page limit 101", byPage(mintlify.FeedbackByPageParams{Limit: 101})},
		{"by-page unknown source", byPage(mintlify.FeedbackByPageParams{Source: "x"})},
		{"by-page unknown status", byPage(mintlify.FeedbackByPageParams{Statuses: []mintlify.FeedbackStatus{"done"}})},
		{"by-page empty range", byPage(mintlify.FeedbackByPageParams{DateFrom: day, DateTo: day})},
		{"conversations limit 1001", conversations(mintlify.ConversationsParams{Limit: 1001})},
		{"conversations reversed range", conversations(mintlify.ConversationsParams{DateFrom: reversed.from, DateTo: reversed.to})},
		{"thread empty", thread("")},
		{"thread too short", thread("01HZY6J0V7Q4N2M8K3D5F9G1B")},
		{"thread too long", thread(threadULID + "0")},
		{"thread first character above 7", thread("81HZY6J0V7Q4N2M8K3D5F9G1B0")},
		{"thread with a letter Crockford leaves out", thread("01HZY6J0V7Q4N2M8K3D5F9G1BU")},
		{"thread with a slash", thread("01HZY6J0V7Q4N2M8K3D5F9G/B0")},
		{"thread path traversal", thread("../../../../../../../../..")},
		{"caller stats empty range", callers(mintlify.CallerStatsParams{DateFrom: day, DateTo: day})},
		{"caller stats year 10000", callers(mintlify.CallerStatsParams{DateTo: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mock := newVisitorsClient(t)
			mock.RegisterNoResponder(httpmock.NewStringResponder(200, `{}`))
			errs := tt.run(c)
			require.Len(t, errs, 3, "GetX fails, and each iterator yields one error")
			for _, err := range errs {
				assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
			}
			assert.Zero(t, mock.GetTotalCallCount(), "no request may be sent")
		})
	}
}

// TestAnalyticsLimitBoundsAreAccepted: each route's own range, ends included.
func TestAnalyticsLimitBoundsAreAccepted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, mock := newVisitorsClient(t)
	mock.RegisterNoResponder(httpmock.NewStringResponder(500, `{"error":"x"}`))
	for _, n := range []int{1, 250} {
		_, err := c.GetViews(ctx, mintlify.ViewsParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "views %d", n)
	}
	for _, n := range []int{1, 100} {
		_, err := c.GetSearches(ctx, mintlify.SearchesParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "searches %d", n)
		_, err = c.GetFeedback(ctx, mintlify.FeedbackParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "feedback %d", n)
		_, err = c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "by-page %d", n)
	}
	for _, n := range []int{1, 1000} {
		_, err := c.GetConversations(ctx, mintlify.ConversationsParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "conversations %d", n)
	}
}

// TestIteratorsDefaultToTheLargestPage: Limit 0 in a walk asks for the
// route's largest page, the fewest requests of the hourly quota; GetX
// with Limit 0 sends none.
func TestIteratorsDefaultToTheLargestPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		route, body, limit string
		walk               func(c *mintlify.Client) []error
		get                func(c *mintlify.Client) error
	}{
		{"searches", `{"searches":[],"totalSearches":0,"nextCursor":null}`, "100",
			func(c *mintlify.Client) []error { return countErrs(c.Searches(ctx, mintlify.SearchesParams{})) },
			func(c *mintlify.Client) error { _, err := c.GetSearches(ctx, mintlify.SearchesParams{}); return err }},
		{"feedback", `{"feedback":[],"nextCursor":null,"hasMore":false}`, "100",
			func(c *mintlify.Client) []error { return countErrs(c.FeedbackPages(ctx, mintlify.FeedbackParams{})) },
			func(c *mintlify.Client) error { _, err := c.GetFeedback(ctx, mintlify.FeedbackParams{}); return err }},
		{"assistant", `{"conversations":[],"nextCursor":null,"hasMore":false}`, "1000",
			func(c *mintlify.Client) []error {
				return countErrs(c.ConversationPages(ctx, mintlify.ConversationsParams{}))
			},
			func(c *mintlify.Client) error {
				_, err := c.GetConversations(ctx, mintlify.ConversationsParams{})
				return err
			}},
		{"views", `{"totals":{"human":0,"ai":0,"total":0},"views":[],"hasMore":false}`, "250",
			func(c *mintlify.Client) []error { return countErrs(c.Views(ctx, mintlify.ViewsParams{})) },
			func(c *mintlify.Client) error { _, err := c.GetViews(ctx, mintlify.ViewsParams{}); return err }},
	} {
		c, mock := newVisitorsClient(t)
		rec := &routeRecorder{}
		rec.register(mock, tc.route, tc.body)
		assert.Empty(t, tc.walk(c), tc.route)
		require.NoError(t, tc.get(c), tc.route)
		require.Len(t, rec.urls, 2, tc.route)
		assert.Equal(t, "limit="+tc.limit, rec.urls[0].RawQuery, "%s walk", tc.route)
		assert.Equal(t, "", rec.urls[1].RawQuery, "%s GetX", tc.route)
	}
}
