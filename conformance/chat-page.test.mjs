// The chat example's page in a real Chromium (Debian's, driven through
// playwright-core): served by the example's own server on the bundled
// mock, over plain HTTP, at 127.0.0.1 and at a made-up host name that
// the browser resolves to it. It asks twice and sees the text stream in,
// the Markdown rendered and the sources linked, the follow-up carry the
// thread; a page of another allowed origin carries a thread in headers;
// a failing answer keeps what arrived; a 429 and a stopped mock show
// readable errors; and nothing else is logged to the console. The Go test
// in examples/assistant-chat starts the servers and passes CHAT_URL,
// CHAT_HOST_URL (the made-up name), ANOTHER_PAGE_URL (a page of another
// allowed origin), MOCK_URL, STOP_MOCK_URL and CHROMIUM.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chromium, env } from "./lib.mjs";

let context;
let close;
before(async () => {
  ({ context, close } = await chromium(`MAP ${new URL(env("CHAT_HOST_URL")).hostname} 127.0.0.1`));
});
after(async () => {
  await close?.();
});

const fault = async (spec) => {
  const res = await fetch(env("MOCK_URL") + "/_mock/faults", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ faults: [`route=assistant-message,${spec}`] }),
  });
  assert.ok(res.ok, await res.text());
};

// open loads the page at url and records what the console and the page
// report, and each exchange with /api/chat.
async function open(url) {
  const page = await context.newPage();
  const problems = [];
  const chats = [];
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", async (r) => {
    if (new URL(r.url()).pathname === "/api/chat" && r.request().method() === "POST") {
      chats.push({ sent: r.request().postDataJSON(), status: r.status(), headers: await r.allHeaders() });
    }
  });
  const res = await page.goto(url);
  assert.equal(res.status(), 200);
  assert.equal(await page.title(), "Ask the docs");
  return { page, problems, chats };
}

// ask asks question (the placeholder's, when empty) with the form and
// waits for the answer to end, sampling its length as it grows.
async function ask(page, question) {
  const n = await page.locator(".assistant").count();
  await page.fill("#question", question);
  await page.click("#ask button");
  const answer = page.locator(".assistant").nth(n);
  const lengths = new Set();
  const started = Date.now();
  for (;;) {
    const [state, length] = await answer.evaluate((el) => [el.dataset.state, el.textContent.length]);
    if (state === "streaming") lengths.add(length);
    if (state === "done" || state === "error") break;
    assert.ok(Date.now() - started < 30_000, `no answer to ${question || "the placeholder"} in 30 s`);
    await page.waitForTimeout(15);
  }
  return { answer, ms: Date.now() - started, lengths: lengths.size };
}

let thread; // the first answer's thread, for the headers test

test("the page asks twice on 127.0.0.1: text streams in, Markdown and sources linked, the follow-up in the thread", async () => {
  const { page, problems, chats } = await open(env("CHAT_URL") + "/");
  const favicon = await page.evaluate(() => fetch(document.querySelector("link[rel=icon]").href).then((r) => r.status));
  assert.equal(favicon, 200);
  assert.equal(await page.evaluate(() => window.isSecureContext), true, "127.0.0.1 is a secure context; the other host is not");

  const first = await ask(page, "");
  assert.equal(await first.answer.getAttribute("data-state"), "done");
  assert.ok(first.lengths >= 3, `the text grew in ${first.lengths} steps, not at once`);
  assert.match(await first.answer.textContent(), /Rate limits/);
  assert.doesNotMatch(await first.answer.textContent(), /\]\(https?:/, "Markdown links are rendered, not shown");
  assert.ok(await first.answer.locator("p > a[href='https://docs.example.com/rate-limits']").count() >= 1, "the answer's Markdown link");
  assert.ok(await first.answer.locator("p").count() >= 2, "paragraphs");
  assert.equal(await first.answer.locator(".sources a[href='https://docs.example.com/rate-limits']").textContent(), "Rate limits");
  assert.equal(await first.answer.locator("script, img, iframe").count(), 0, "no markup from the answer");

  const second = await ask(page, "How do preview deployments work?");
  assert.equal(await second.answer.getAttribute("data-state"), "done");
  assert.match(await second.answer.textContent(), /Preview deployments/);
  assert.ok(await second.answer.locator(".sources a[href='https://docs.example.com/previews']").count() === 1);

  assert.equal(chats.length, 2);
  const id = chats[0].headers["x-thread-id"];
  assert.ok(id && chats[0].headers["x-thread-key"], "the first answer names its thread");
  assert.equal(chats[0].sent.threadId, undefined);
  assert.equal(chats[1].sent.threadId, id, "the follow-up sends the thread");
  assert.equal(chats[1].sent.messages.length, 3, "with the conversation");
  assert.equal(chats[1].headers["x-thread-id"], id, "and continues it");
  thread = { id, key: chats[0].headers["x-thread-key"] };
  assert.deepEqual(problems, []);
  await page.close();
});

test("the page works at another host name, over plain HTTP; a page of another allowed origin carries the thread in headers", async () => {
  const { page, problems } = await open(env("CHAT_HOST_URL") + "/");
  assert.equal(await page.evaluate(() => window.isSecureContext), false, "plain HTTP on a name is no secure context");
  const { answer } = await ask(page, "How does authentication work?");
  assert.equal(await answer.getAttribute("data-state"), "done", await answer.textContent());
  assert.match(await answer.textContent(), /Authorization header/);

  // A page of another allowed origin (not the proxy's own) calls the
  // proxy across origins, with the thread in headers: the preflight must
  // allow them, and the answer expose the thread.
  await page.goto(env("ANOTHER_PAGE_URL"));
  assert.ok(thread, "the first test found a thread");
  const got = await page.evaluate(async ({ api, thread }) => {
    try {
      const r = await fetch(api, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Thread-Id": thread.id, "X-Thread-Key": thread.key },
        body: JSON.stringify({ messages: [{ id: "q1", role: "user", parts: [{ type: "text", text: "How do preview deployments work?" }] }] }),
      });
      const body = await r.text();
      return { status: r.status, thread: r.headers.get("X-Thread-Id"), preview: /Preview deployments/.test(body) };
    } catch (e) {
      return { error: String(e) };
    }
  }, { api: env("CHAT_URL") + "/api/chat", thread });
  assert.deepEqual(got, { status: 200, thread: thread.id, preview: true }, `what the browser said: ${problems.join("; ")}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("errors read plainly: a broken answer keeps its text, a 429 says when to retry, a stopped mock says so", async () => {
  const { page, problems } = await open(env("CHAT_URL") + "/");

  await fault("kind=stream-error,times=1");
  const broken = await ask(page, "What are the rate limits?");
  assert.equal(await broken.answer.getAttribute("data-state"), "error");
  assert.match(await broken.answer.textContent(), /^Here is what the documentation says/, "what arrived stays");
  assert.match(await broken.answer.locator(".error").textContent(), /^The answer stopped: An error occurred while generating the answer/);

  await fault("status=429,retry-after=7");
  let busy;
  try {
    busy = await ask(page, "What are the rate limits?");
  } finally {
    await fetch(env("MOCK_URL") + "/_mock/faults", { method: "DELETE" });
  }
  assert.equal(await busy.answer.getAttribute("data-state"), "error");
  assert.equal(await busy.answer.locator(".error").textContent(), "Too many questions for now (the assistant is busy; try again later): try again in 7 s.");
  assert.ok(busy.ms < 3000, `the 429 showed in ${busy.ms} ms, not after the proxy waited out Retry-After`);

  const stopped = await fetch(env("STOP_MOCK_URL"), { method: "POST" });
  assert.equal(stopped.status, 204);
  const down = await ask(page, "What are the rate limits?");
  assert.equal(await down.answer.getAttribute("data-state"), "error");
  assert.equal(await down.answer.locator(".error").textContent(), "The server refused the question (502): the assistant could not be reached.");

  // The browser logs each refused request; nothing else may be logged.
  const refusals = /^error: Failed to load resource: the server responded with a status of (429|502) /;
  assert.deepEqual(problems.filter((p) => !refusals.test(p)), []);
  await page.close();
});
