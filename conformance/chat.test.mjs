// Multi-turn chats through the proxy with each release's own Chat (the
// AbstractChat under useChat) and DefaultChatTransport, against the
// bundled mock: the thread carried across turns in headers (the snippet
// of docs/assistant.md), stop, a 429, an upstream error, a broken stream,
// and a 30-turn chat whose requests carry every earlier answer's search
// results.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { releases, env, sdk, chat, outcome, text, threadTransport, checkChunks, post } from "./lib.mjs";

const control = async (method, path, body) => {
  const res = await fetch(env("MOCK_URL") + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body && JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.text()}`);
};
const fault = (spec) => control("POST", "/_mock/faults", { faults: [`route=assistant-message,${spec}`] });
const clearFaults = () => control("DELETE", "/_mock/faults");
after(clearFaults);

// exchanges records what the chat's transport sent and got, by wrapping
// the fetch it calls (the global one, as in a browser).
function exchanges() {
  const seen = [];
  const real = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const sent = new Headers(init?.headers);
    const body = JSON.parse(init?.body ?? "{}");
    const started = Date.now();
    const res = await real(input, init);
    seen.push({ sent, body, status: res.status, headers: res.headers, ms: Date.now() - started });
    return res;
  };
  return { seen, restore: () => { globalThis.fetch = real; } };
}

// turn sends one question and returns the chat's outcome, with how the
// chat's onFinish saw the end.
async function turn(c, question) {
  c.finished = undefined;
  await c.sendMessage({ text: question });
  return { ...outcome(c), finish: c.finished };
}

async function threadChat(r) {
  const ai = await sdk(r);
  const c = await chat(r, threadTransport(ai, env("PROXY_URL")), {
    onFinish: (f) => { c.finished = { isAbort: f.isAbort, isError: f.isError, isDisconnect: f.isDisconnect }; },
  });
  return c;
}

// Questions the mock's default pages answer, each with a word its answer
// holds.
const questions = [
  ["What are the rate limits?", /limit/i],
  ["How do preview deployments work?", /preview/i],
  ["How does authentication work?", /key/i],
  ["How do I follow a deployment?", /deployment/i],
  ["How do I install the command line tool?", /install|command line/i],
];

for (const r of releases) {
  test(`ai ${r.version}: a chat carries its thread in the headers, turn after turn`, async () => {
    const c = await threadChat(r);
    const x = exchanges();
    try {
      for (const [q, word] of questions.slice(0, 3)) {
        const o = await turn(c, q);
        assert.equal(o.status, "ready", `${q}: ${o.error}`);
        assert.match(text(o.parts), word, q);
        assert.ok(o.parts.some((p) => p.type === "source-url"), `${q}: the pages it used`);
      }
    } finally {
      x.restore();
    }
    const [first, ...rest] = x.seen;
    assert.equal(first.sent.get("X-Thread-Id"), null, "the first turn starts a thread");
    const id = first.headers.get("X-Thread-Id");
    const key = first.headers.get("X-Thread-Key");
    assert.ok(id && key, "the first answer names the thread and its key");
    for (const [i, e] of rest.entries()) {
      assert.equal(e.sent.get("X-Thread-Id"), id, `turn ${i + 2} sends the thread`);
      assert.equal(e.sent.get("X-Thread-Key"), key, `turn ${i + 2} sends its key`);
      assert.equal(e.headers.get("X-Thread-Id"), id, `turn ${i + 2} continues the thread, not a new one`);
    }
    assert.equal(c.messages.length, 6);
  });

  test(`ai ${r.version}: stop keeps what arrived, and the chat goes on`, async () => {
    const c = await threadChat(r);
    await fault("slow=4s,times=1"); // the answer's frames spread over 4 s
    const sending = c.sendMessage({ text: questions[0][0] });
    const started = Date.now();
    while (!text(c.messages.at(-1)?.role === "assistant" ? c.messages.at(-1).parts : []) && Date.now() - started < 5000) {
      await new Promise((res) => setTimeout(res, 20));
    }
    c.stop();
    await sending;
    const stopped = { ...outcome(c), finish: c.finished };
    assert.ok(Date.now() - started < 3500, "stopped before the answer ended");
    assert.equal(stopped.status, "ready", String(stopped.error));
    assert.ok(text(stopped.parts).length > 0, "the partial answer stays");
    assert.equal(stopped.finish?.isAbort, true);
    const next = await turn(c, questions[1][0]);
    assert.equal(next.status, "ready", String(next.error));
    assert.match(text(next.parts), questions[1][1]);
  });

  test(`ai ${r.version}: a 429 upstream is the chat's error at once, with Retry-After`, async () => {
    await fault("status=429,retry-after=5");
    let direct;
    const c = await threadChat(r);
    const x = exchanges();
    try {
      direct = await post(env("PROXY_URL"), questions[0][0]);
      await direct.text();
      const o = await turn(c, questions[0][0]);
      assert.equal(o.status, "error");
      assert.match(o.error ?? "", /try again later/, "the proxy's words reach the chat");
    } finally {
      x.restore();
      await clearFaults();
    }
    assert.equal(direct.status, 429);
    assert.equal(direct.headers.get("Retry-After"), "5", "the upstream's Retry-After");
    assert.equal(x.seen[0].status, 429);
    assert.ok(x.seen[0].ms < 1000, `the 429 came in ${x.seen[0].ms} ms, not after waiting out Retry-After`);
    const next = await turn(c, questions[0][0]);
    assert.equal(next.status, "ready", "the next question is answered");
  });

  test(`ai ${r.version}: an upstream error mid-answer keeps the partial answer and says what happened`, async () => {
    await fault("kind=stream-error,times=1");
    const res = await post(env("PROXY_URL"), questions[0][0]);
    const chunks = await checkChunks(r, res);
    assert.deepEqual(chunks.filter((ch) => !ch.ok), []);
    assert.equal(chunks.filter((ch) => ch.chunk.type === "error").length, 1, "one error chunk, the upstream's");
    assert.equal(chunks.at(-1).chunk.type, "error");

    await fault("kind=stream-error,times=1");
    const c = await threadChat(r);
    const o = await turn(c, questions[0][0]);
    assert.equal(o.status, "error");
    assert.match(o.error, /error occurred while generating the answer/);
    assert.ok(text(o.parts).length > 0, "the first half of the answer stays");
    assert.equal(o.finish?.isError, true);
  });

  test(`ai ${r.version}: a broken stream is an error, not a whole answer`, async () => {
    await fault("kind=truncate,times=1");
    const c = await threadChat(r);
    const o = await turn(c, questions[0][0]);
    assert.equal(o.status, "error", "the chat knows the answer is not whole");
    assert.match(o.error, /broke off/);
    assert.ok(text(o.parts).length > 0, "what arrived stays");
    const next = await turn(c, questions[1][0]);
    assert.equal(next.status, "ready", String(next.error));
  });

  test(`ai ${r.version}: a 30-turn chat with search results goes on`, async () => {
    await addLongPages();
    const c = await threadChat(r);
    const x = exchanges();
    try {
      for (let i = 0; i < 30; i++) {
        const o = await turn(c, questions[i % questions.length][0]);
        assert.equal(o.status, "ready", `turn ${i + 1}: ${o.error}`);
        assert.match(text(o.parts), /documentation says/, `turn ${i + 1}`);
        assert.ok(o.parts.some((p) => p.type === "tool-search" && p.output?.length === 5), `turn ${i + 1}: the search step's results`);
      }
    } finally {
      x.restore();
      await control("POST", "/_mock/reset"); // the default pages again
    }
    const id = x.seen[0].headers.get("X-Thread-Id");
    let largest = 0;
    for (const [i, e] of x.seen.entries()) {
      const sent = e.body.messages.length;
      const textBytes = Buffer.byteLength(e.body.messages.map((m) => text(m.parts)).join(""));
      largest = Math.max(largest, Buffer.byteLength(JSON.stringify(e.body)));
      assert.equal(e.status, 200, `turn ${i + 1}`);
      assert.equal(e.headers.get("X-Thread-Id"), id, `turn ${i + 1} is in the thread`);
      const trimmed = Number(e.headers.get("X-Conversation-Trimmed") ?? 0);
      if (sent > 50) {
        assert.ok(trimmed >= sent - 50 && trimmed < sent, `turn ${i + 1}: ${sent} messages, ${trimmed} left out`);
      } else if (textBytes <= 256 << 10) {
        assert.equal(trimmed, 0, `turn ${i + 1}: ${sent} messages, ${textBytes} bytes of text, none left out`);
      }
    }
    assert.ok(largest > 256 << 10, `the last requests carry the search results: ${largest} bytes`);
  });
}

// addLongPages gives the mock pages whose best paragraphs are long and
// match every question, so that each answer's search step carries about
// 20 KB of results, which the chat sends back with each later question.
async function addLongPages() {
  const para = (i) => Array.from({ length: 40 }, (_, j) =>
    `Note ${i}.${j}: rate limits, authentication keys, deployments, preview deployments and the command line install all matter here.`).join(" ");
  await control("POST", "/_mock/pages", {
    pages: Array.from({ length: 5 }, (_, i) => ({ path: `guides/long-${i}`, title: `Long guide ${i}`, content: para(i) })),
  });
}
