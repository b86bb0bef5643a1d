package main

import (
	. "github.com/docsagent/mintlify-go/internal/apishape"
)

// expectation is what the SDK and the mock assume one answer is: the
// vendor's document for the route, with the few readings this project
// adds (a test compares each shape with the stored documents, line by
// line). times are the members the SDK reads as dates.
type expectation struct {
	method, route string // the documents' route, on the paths of the mock's address space
	status        int
	shape         *Shape
	times         []string
}

// The documented answers mintctl doctor reads, by check.
var (
	whole        = Of(Integer) // a count: the SDK reads counts as int, a fraction is malformed
	trafficShape = func(rows string) *Shape {
		counts := Obj(Req("human", whole), Req("ai", whole), Req("total", whole))
		return Obj(Req("totals", counts), Req(rows, Arr(Obj(Req("path", Str()), Req("human", whole), Req("ai", whole), Req("total", whole)))),
			Req("hasMore", Of(Boolean)))
	}

	expectJobNotFound = expectation{method: "GET", route: "/v2/agent/{projectId}/job/{id}", status: 404,
		shape: Obj(Opt("error", Str()), Opt("details", Arr(Obj(Req("message", Str())))))}

	expectVisitors = expectation{method: "GET", route: "/v1/analytics/{projectId}/visitors", status: 200, shape: trafficShape("visitors")}
	expectViews    = expectation{method: "GET", route: "/v1/analytics/{projectId}/views", status: 200, shape: trafficShape("views")}
	expectSearches = expectation{method: "GET", route: "/v1/analytics/{projectId}/searches", status: 200,
		shape: Obj(Req("searches", Arr(Obj(Req("searchQuery", Str()), Req("hits", whole), Req("ctr", Of(Number)),
			Req("topClickedPage", OrNull(Str())), Req("lastSearchedAt", Str())))),
			Req("totalSearches", whole), Req("nextCursor", OrNull(Str()))),
		times: []string{"searches[].lastSearchedAt"}}
	expectFeedback = expectation{method: "GET", route: "/v1/analytics/{projectId}/feedback", status: 200,
		shape: Obj(Req("feedback", Arr(Obj(Req("id", Str()), Req("path", Str()), Req("comment", OrNull(Str())),
			Req("createdAt", OrNull(Str())), Req("source", Enum("code_snippet", "contextual", "agent", "thumbs_only")),
			Req("status", Enum("pending", "in_progress", "resolved", "dismissed")),
			Opt("helpful", Of(Boolean)), Opt("contact", OrNull(Str())),
			Opt("code", Str()), Opt("filename", OrNull(Str())), Opt("lang", OrNull(Str()))))),
			Req("nextCursor", OrNull(Str())), Req("hasMore", Of(Boolean))),
		times: []string{"feedback[].createdAt"}}
	expectFeedbackByPage = expectation{method: "GET", route: "/v1/analytics/{projectId}/feedback/by-page", status: 200,
		shape: Obj(Req("feedback", Arr(Obj(Req("path", Str()), Req("thumbsUp", whole), Req("thumbsDown", whole),
			Req("code", whole), Req("total", whole)))), Req("hasMore", Of(Boolean)))}
	expectConversations = expectation{method: "GET", route: "/v1/analytics/{projectId}/assistant", status: 200,
		shape: Obj(Req("conversations", Arr(Obj(Req("id", Str()), Req("timestamp", Str()), Req("query", Str()), Req("response", Str()),
			Opt("responseType", Enum("answer", "clarifying_question")),
			Req("sources", Arr(Obj(Req("title", Str()), Req("url", Str())))),
			Req("resolutionStatus", Enum("answered", "unanswered")),
			Req("queryCategory", OrNull(Str())), Req("pageUrl", OrNull(Str()))))),
			Req("nextCursor", OrNull(Str())), Req("hasMore", Of(Boolean))),
		times: []string{"conversations[].timestamp"}}
	expectThread = expectation{method: "GET", route: "/v1/analytics/{projectId}/assistant/threads/{threadId}", status: 200,
		shape: Obj(Req("threadId", Str()), Req("createdAt", Str()),
			Req("messages", Arr(Obj(Req("id", Str()), Req("role", Enum("user", "assistant")), Req("content", Str()), Req("createdAt", Str()))))),
		times: []string{"createdAt", "messages[].createdAt"}}
	expectCallerStats = expectation{method: "GET", route: "/v1/analytics/{projectId}/assistant/caller-stats", status: 200,
		shape: Obj(Req("web", whole), Req("api", whole), Req("other", whole), Req("total", whole))}

	expectDeployment = expectation{method: "GET", route: "/v1/project/update-status/{statusId}", status: 200,
		shape: Obj(Req("_id", Str()), Opt("projectId", Str()), Opt("createdAt", Str()), Opt("endedAt", Str()),
			Req("status", Enum("queued", "in_progress", "success", "failure")),
			Opt("summary", Str()), Opt("logs", Arr(Str())), Opt("subdomain", Str()),
			Opt("screenshot", Str()), Opt("screenshotLight", Str()), Opt("screenshotDark", Str()),
			Opt("author", OrNull(Obj(Opt("name", Str()), Opt("avatarUrl", Str()), Opt("githubUserId", whole)))),
			Opt("commit", Obj(Opt("sha", Str()), Opt("ref", Str()), Opt("message", Str()),
				Opt("filesChanged", Obj(Opt("added", Arr(Str())), Opt("modified", Arr(Str())), Opt("removed", Arr(Str())))))),
			Opt("source", Enum("internal", "github-app-installation", "api", "github", "dashboard", "gitlab", "onboarding"))),
		times: []string{"createdAt", "endedAt"}}

	expectDocsSearch = expectation{method: "POST", route: "/discovery/v1/search/{domain}", status: 200,
		shape: Arr(Obj(Opt("content", Str()), Opt("path", Str()), Opt("metadata", Of(Object))))}
	expectPageContent = expectation{method: "POST", route: "/discovery/v1/page/{domain}", status: 200,
		shape: Obj(Opt("path", Str()), Opt("content", Str()))}

	expectIndexSearch = expectation{method: "POST", route: "/api/universal-search/v1/search", status: 200,
		shape: Obj(Req("requestId", Str()), Req("results", Arr(Obj(Req("id", Str()), Req("url", Str("uri")), Req("title", Str()),
			Req("text", Str()), Opt("truncated", Of(Boolean)), Opt("totalCharacters", Of(Integer)), Req("score", Of(Number)),
			Req("source", Enum("mintlify", "web")), Req("siteName", Str()), Req("breadcrumbs", Arr(Str())),
			Req("publishedDate", OrNull(Str())))))),
		times: []string{"results[].publishedDate"}}
)

// streamChunkTypes are the chunk types of the AI SDK's UI message stream
// (version 1), which the assistant's message route answers; "data-" types
// are the application's own.
var streamChunkTypes = []string{"start", "start-step", "finish-step", "text-start", "text-delta", "text-end",
	"reasoning-start", "reasoning-delta", "reasoning-end", "source-url", "source-document", "file",
	"tool-input-start", "tool-input-delta", "tool-input-available", "tool-input-error", "tool-output-available",
	"tool-output-error", "error", "finish", "abort", "message-metadata"}
