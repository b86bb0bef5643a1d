// Every chunk of the mock's stream and of the proxy's, read by each AI
// SDK release with its own event-stream parser and UI message chunk
// schema: what DefaultChatTransport (useChat's) does with an answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { releases, env, checkChunks, post } from "./lib.mjs";
import { scenarios, raw } from "./sdk-server.mjs";

const mock = () => `${env("MOCK_URL")}/discovery/v2/assistant/${env("MOCK_DOMAIN")}/message`;
const mockAuth = () => ({ Authorization: `Bearer ${env("MOCK_ASSISTANT_KEY")}` });
const sdkServer = (r) => `${env("SDK_SERVER_URL")}/${r.pkg}/v2/assistant/docs.example.com/message`;
const sdkProxy = (r) => JSON.parse(env("SDK_PROXY_URLS"))[r.pkg];

// Questions the mock's default pages answer, and one they do not.
const questions = ["What are the rate limits?", "How do preview deployments work?", "How does authentication work?", "What is the airspeed of a swallow?"];

const rejected = (chunks) => chunks.filter((c) => !c.ok);
const types = (chunks) => chunks.map((c) => c.chunk?.type);

for (const r of releases) {
  test(`ai ${r.version} reads the mock's own stream`, async () => {
    for (const q of questions) {
      const res = await post(mock(), q, mockAuth(), { fp: "conformance" });
      assert.equal(res.status, 200, q);
      const chunks = await checkChunks(r, res);
      assert.ok(types(chunks).includes("text-delta"), q);
      // The mock sends the vendor's finish chunk, with threadId: a member
      // a strict release's finish schema does not name, so it refuses
      // the chunk, and useChat the answer. This is why the proxy writes
      // each chunk with its schema's members only.
      const bad = rejected(chunks);
      if (r.strict) {
        assert.deepEqual(bad.map((c) => c.chunk.type), ["finish"], `${q}: ${JSON.stringify(bad)}`);
        assert.ok("threadId" in bad[0].chunk);
      } else {
        assert.deepEqual(bad, [], q);
      }
    }
  });

  test(`ai ${r.version} accepts every chunk the proxy sends for the mock`, async () => {
    for (const q of questions) {
      const res = await post(env("PROXY_URL"), q);
      assert.equal(res.status, 200, q);
      assert.match(res.headers.get("X-Thread-Id") ?? "", /^[0-9A-HJKMNP-TV-Z]{26}$/, "the thread is the header's");
      const chunks = await checkChunks(r, res);
      assert.deepEqual(rejected(chunks), [], q);
      const t = types(chunks);
      assert.equal(t[0], "start", q);
      assert.equal(t.at(-1), "finish", q);
      assert.ok(t.includes("text-delta") && t.includes("tool-output-available"), q);
      if (q !== questions.at(-1)) assert.ok(t.includes("source-url"), q);
    }
  });

  test(`ai ${r.version}: the proxy relays its own server's answers chunk for chunk`, async () => {
    for (const name of Object.keys(scenarios)) {
      const direct = await checkChunks(r, await post(sdkServer(r), name, { Authorization: "Bearer mint_dsc_conformance" }));
      assert.deepEqual(rejected(direct), [], `${name}, read directly`);
      const res = await post(sdkProxy(r), name);
      assert.equal(res.status, 200, name);
      const proxied = await checkChunks(r, res);
      assert.deepEqual(rejected(proxied), [], `${name}, through the proxy`);
      assert.deepEqual(proxied.map((c) => c.chunk), direct.map((c) => c.chunk), `${name}: the same chunks through the proxy`);
    }
  });

  test(`ai ${r.version}: a frame that is not a chunk ends the proxy's answer with an error chunk`, async () => {
    for (const name of Object.keys(raw).filter((n) => n !== "raw-extra-members")) {
      const res = await post(sdkProxy(r), name);
      assert.equal(res.status, 200, name);
      const chunks = await checkChunks(r, res);
      assert.deepEqual(rejected(chunks), [], `${name}: every chunk relayed is one the client accepts`);
      assert.deepEqual(types(chunks), ["start", "text-start", "text-delta", "error"], `${name}: what came before, then an error`);
      assert.equal(chunks[2].chunk.delta, "Before the bad frame.");
    }
  });

  test(`ai ${r.version}: the proxy relays a chunk with its schema's members only`, async () => {
    const chunks = await checkChunks(r, await post(sdkProxy(r), "raw-extra-members"));
    assert.deepEqual(rejected(chunks), []);
    assert.deepEqual(chunks.map((c) => c.chunk), [
      { type: "start", messageId: "answer-1" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Members no schema names." },
      { type: "text-end", id: "t1" },
      { type: "source-url", sourceId: "s1", url: "https://docs.example.com/rate-limits", title: "Rate limits" },
      { type: "finish", finishReason: "stop" },
    ]);
  });
}
