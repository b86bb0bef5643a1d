// An assistant API written with the AI SDK's own server side, one per
// release: POST /<release package>/v2/assistant/<domain>/message answers
// with the stream the release's createUIMessageStream makes for the
// scenario the last user message names (see scenarios), sent as
// createUIMessageStreamResponse or pipeUIMessageStreamToResponse sends it,
// then, for some scenarios, with its bytes re-framed as other servers may
// frame them (CR or CRLF line ends, a BOM, no [DONE], frames split across
// writes, a data field of several lines, comments). The Go test points
// an AssistantProxy and the Go SDK at it; the tests read it directly and
// through the proxy. It prints its URL, then serves until killed.
import http from "node:http";
import { pathToFileURL } from "node:url";
import { releases, sdk } from "./lib.mjs";

export const threadHeaders = { "X-Thread-Id": "01JNGJ5W0000000000000000AA", "X-Thread-Key": "tk-conformance" };

const text = (w, id, ...deltas) => {
  w.write({ type: "text-start", id });
  for (const delta of deltas) w.write({ type: "text-delta", id, delta });
  w.write({ type: "text-end", id });
};

const answer = (w) => {
  w.write({ type: "start", messageId: "answer-1" });
  w.write({ type: "start-step" });
  text(w, "t1", "Requests over the limit get ", "**429** and a `Retry-After` header.");
  text(w, "t2", "See [Rate limits](https://docs.example.com/rate-limits):\n\n", "- wait, then\n- retry once");
  w.write({ type: "source-url", sourceId: "s1", url: "https://docs.example.com/rate-limits", title: "Rate limits" });
  w.write({ type: "source-url", sourceId: "s2", url: "https://docs.example.com/authentication" });
  w.write({ type: "source-document", sourceId: "s3", mediaType: "text/markdown", title: "Limits table", filename: "limits.md" });
  w.write({ type: "finish-step" });
  w.write({ type: "finish", finishReason: "stop" });
};

// The scenarios, by the question that asks for each. Each writes the
// chunks of one answer with the release's UI message stream writer; wire
// says how its bytes go out.
export const scenarios = {
  text: { write: answer },
  reasoning: {
    pipe: true,
    write: (w) => {
      w.write({ type: "start", messageId: "answer-1" });
      w.write({ type: "start-step" });
      w.write({ type: "reasoning-start", id: "r1" });
      w.write({ type: "reasoning-delta", id: "r1", delta: "The reader asks about limits; " });
      w.write({ type: "reasoning-delta", id: "r1", delta: "the rate limits page answers." });
      w.write({ type: "reasoning-end", id: "r1" });
      text(w, "t1", "Limits count ", "per organization.");
      w.write({ type: "finish-step" });
      w.write({ type: "finish", finishReason: "stop" });
    },
  },
  tools: {
    pipe: true,
    write: (w) => {
      w.write({ type: "start", messageId: "answer-1" });
      w.write({ type: "start-step" });
      w.write({ type: "tool-input-start", toolCallId: "call-1", toolName: "search" });
      w.write({ type: "tool-input-delta", toolCallId: "call-1", inputTextDelta: '{"query":' });
      w.write({ type: "tool-input-delta", toolCallId: "call-1", inputTextDelta: '"rate limits"}' });
      w.write({ type: "tool-input-available", toolCallId: "call-1", toolName: "search", input: { query: "rate limits" } });
      w.write({
        type: "tool-output-available", toolCallId: "call-1",
        output: [{ content: "A request over a limit is answered with 429.", path: "rate-limits", metadata: { title: "Rate limits" } }],
      });
      w.write({ type: "tool-input-start", toolCallId: "call-2", toolName: "fetchPage" });
      w.write({ type: "tool-input-available", toolCallId: "call-2", toolName: "fetchPage", input: { path: "missing" } });
      w.write({ type: "tool-output-error", toolCallId: "call-2", errorText: "no such page" });
      w.write({ type: "finish-step" });
      w.write({ type: "start-step" });
      text(w, "t1", "The search found one page.");
      w.write({ type: "finish-step" });
      w.write({ type: "finish", finishReason: "stop" });
    },
  },
  files: {
    write: (w) => {
      w.write({ type: "start", messageId: "answer-1", messageMetadata: { model: "conformance" } });
      w.write({ type: "start-step" });
      w.write({ type: "data-status", id: "st1", data: { step: "searching" } });
      w.write({ type: "data-status", id: "st1", data: { step: "done" } }); // replaces the part of the same id
      w.write({ type: "data-progress", data: { percent: 50 }, transient: true }); // never kept
      w.write({ type: "file", url: "https://docs.example.com/images/limits.png", mediaType: "image/png" });
      text(w, "t1", "The diagram shows the window.");
      w.write({ type: "message-metadata", messageMetadata: { model: "conformance", tokens: 12 } });
      w.write({ type: "finish-step" });
      w.write({ type: "finish", finishReason: "stop" });
    },
  },
  error: {
    write: async (w) => {
      w.write({ type: "start", messageId: "answer-1" });
      w.write({ type: "start-step" });
      w.write({ type: "text-start", id: "t1" });
      w.write({ type: "text-delta", id: "t1", delta: "The first half of an answer, " });
      await new Promise((r) => setTimeout(r, 10));
      throw new Error("the search index is down");
    },
  },
  abort: {
    write: (w) => {
      w.write({ type: "start", messageId: "answer-1" });
      w.write({ type: "start-step" });
      text(w, "t1", "An answer the server ", "stopped.");
      w.write({ type: "abort" });
    },
  },
  cr: { write: answer, wire: (s) => s.replaceAll("\n", "\r") },
  crlf: { write: answer, wire: (s) => s.replaceAll("\n", "\r\n") },
  bom: { write: answer, bom: true },
  "no-done": { write: answer, wire: (s) => s.replace("data: [DONE]\n\n", "") },
  // A frame's data in two lines ("data: {...,\ndata: ...}"), which a
  // reader joins with a line feed, and comments and other fields, which
  // it ignores.
  fields: {
    write: answer,
    wire: (s) => s.replace(/^data: (\{"type":"[^"]*",)/gm, ': a comment\nevent: message\nid: 7\ndata: $1\ndata: '),
  },
  // Every frame sent in pieces: cut inside the JSON, inside a CRLF, and
  // between the "data" and its colon.
  split: { write: answer, wire: (s) => s.replaceAll("\n", "\r\n"), pieces: true },
};

// Answers no AI SDK server writes: each frame as it stands, for the
// proxy's checks (a chunk that is not a JSON object with a string type
// ends the answer with an error chunk; members a chunk's schema does not
// name are not relayed).
const opening = ['{"type":"start","messageId":"answer-1"}', '{"type":"text-start","id":"t1"}', '{"type":"text-delta","id":"t1","delta":"Before the bad frame."}'];
export const raw = {
  "raw-array": [...opening, "[1,2]", '{"type":"text-end","id":"t1"}', '{"type":"finish"}', "[DONE]"],
  "raw-null": [...opening, "null", '{"type":"finish"}', "[DONE]"],
  "raw-string": [...opening, '"text-delta"', '{"type":"finish"}', "[DONE]"],
  "raw-no-type": [...opening, '{"id":"t1","delta":"no type"}', '{"type":"finish"}', "[DONE]"],
  "raw-number-type": [...opening, '{"type":7,"id":"t1"}', '{"type":"finish"}', "[DONE]"],
  "raw-not-json": [...opening, '{"type":"text-delta","id":"t1","delta":', '{"type":"finish"}', "[DONE]"],
  "raw-extra-members": [
    '{"type":"start","messageId":"answer-1","threadId":"01JNGJ5W0000000000000000AA"}',
    '{"type":"text-start","id":"t1","model":"x"}',
    '{"type":"text-delta","id":"t1","delta":"Members no schema names.","score":0.5}',
    '{"type":"text-end","id":"t1","extra":{"a":[1]}}',
    '{"type":"source-url","sourceId":"s1","url":"https://docs.example.com/rate-limits","title":"Rate limits","path":"rate-limits"}',
    '{"type":"finish","finishReason":"stop","threadId":"01JNGJ5W0000000000000000AA"}',
    "[DONE]",
  ],
};

// respond answers one request for scenario name with release's server.
async function respond(release, name, res) {
  if (Object.hasOwn(raw, name)) {
    res.writeHead(200, { "Content-Type": "text/event-stream", "X-Vercel-AI-UI-Message-Stream": "v1", ...threadHeaders });
    res.end(raw[name].map((d) => `data: ${d}\n\n`).join(""));
    return;
  }
  const ai = await sdk(release);
  const sc = scenarios[name];
  const stream = ai.createUIMessageStream({
    execute: ({ writer }) => sc.write(writer),
    onError: (e) => e.message,
  });
  if (sc.pipe) {
    ai.pipeUIMessageStreamToResponse({ response: res, stream, headers: threadHeaders });
    return;
  }
  const response = ai.createUIMessageStreamResponse({ stream, headers: threadHeaders });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (sc.bom) res.write("\uFEFF");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const out = sc.wire ? sc.wire(value) : value;
    if (!sc.pieces) {
      res.write(out);
      continue;
    }
    let from = 0;
    for (const at of [4, 13, Math.max(14, out.length - 3), Math.max(15, out.length - 1)].filter((i) => i < out.length)) {
      res.write(out.slice(from, at));
      from = at;
      await new Promise((r) => setTimeout(r, 2));
    }
    res.write(out.slice(from));
  }
  res.end();
}

function lastUserText(body) {
  const last = body?.messages?.at(-1);
  return (last?.parts ?? []).filter((p) => p.type === "text").map((p) => p.text).join("").trim();
}

const server = http.createServer((req, res) => {
  const fail = (status, message) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ message }));
  };
  const m = /^\/(ai-[0-9-]+)\/v2\/assistant\/[^/]+\/message$/.exec(req.url);
  const release = m && releases.find((r) => r.pkg === m[1]);
  if (req.method !== "POST" || !release) return fail(404, "no such route");
  if (!/^Bearer mint_dsc_/.test(req.headers.authorization ?? "")) return fail(401, "no assistant key");
  let received = "";
  req.setEncoding("utf8");
  req.on("data", (d) => { received += d; });
  req.on("end", () => {
    let body;
    try { body = JSON.parse(received); } catch { return fail(400, "not JSON"); }
    const name = lastUserText(body);
    if (!Object.hasOwn(scenarios, name) && !Object.hasOwn(raw, name)) return fail(400, `no scenario ${JSON.stringify(name)}`);
    respond(release, name, res).catch((e) => { console.error(e); res.destroy(); });
  });
});

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  server.listen(0, "127.0.0.1", () => {
    console.log(`http://127.0.0.1:${server.address().port}`);
  });
}
