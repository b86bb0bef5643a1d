// What the conformance tests share: the AI SDK releases under test (each
// installed under an npm alias, so four copies of the real code sit side
// by side), a framework-free Chat on each release's AbstractChat, and
// readers that judge a stream as each release's own client does.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The releases: the last 5.x whose chunk schemas are strict (strict: a
// member the schema does not name fails the chunk, and with it the whole
// answer), the newest 5.x, 6.x and 7.x.
export const releases = ["5.0.216", "5.0.277", "6.0.326", "7.0.173"].map((version) => ({
  version,
  pkg: "ai-" + version.replaceAll(".", "-"),
  strict: version === "5.0.216",
}));

const loaded = new Map();

// sdk is the release's "ai" module.
export async function sdk(release) {
  if (!loaded.has(release.pkg)) loaded.set(release.pkg, await import(release.pkg));
  return loaded.get(release.pkg);
}

// env reads a setting the Go test driver passes.
export function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run these tests with go test ./conformance (it starts the servers)`);
  return v;
}

// ChatState is the plainest state an AbstractChat can keep: what the
// framework bindings (React's, Vue's) keep in their stores, here in fields.
class ChatState {
  status = "ready";
  error = undefined;
  messages = [];
  pushMessage = (m) => { this.messages = this.messages.concat(m); };
  popMessage = () => { this.messages = this.messages.slice(0, -1); };
  replaceMessage = (i, m) => { this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)]; };
  snapshot = (thing) => structuredClone(thing);
}

// chat makes a Chat of the release, as useChat would: on transport, or
// on a DefaultChatTransport made with these options.
export async function chat(release, transport, chatOptions = {}) {
  const ai = await sdk(release);
  if (!(transport instanceof ai.DefaultChatTransport)) transport = new ai.DefaultChatTransport(transport);
  class NodeChat extends ai.AbstractChat {
    constructor(init) {
      super({ ...init, state: new ChatState() });
    }
  }
  let n = 0;
  return new NodeChat({
    generateId: () => `m${++n}`,
    transport,
    ...chatOptions,
  });
}

// checkChunks reads a response's body as DefaultChatTransport does, with
// the release's own event-stream parser and UI message chunk schema, and
// returns every chunk with whether the release accepts it.
export async function checkChunks(release, response) {
  const ai = await sdk(release);
  const out = [];
  const reader = ai.parseJsonEventStream({ stream: response.body, schema: ai.uiMessageChunkSchema }).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    out.push(value.success
      ? { ok: true, chunk: value.value }
      : { ok: false, chunk: value.rawValue, error: String(value.error?.message ?? value.error).slice(0, 600) });
  }
}

// outcome is what a user of the chat sees after a turn: its status, its
// error, and the answer's parts (the last message, when it is the
// assistant's).
export function outcome(c) {
  const last = c.messages.at(-1);
  return {
    status: c.status,
    error: c.error?.message,
    parts: last?.role === "assistant" ? last.parts : [],
    metadata: last?.role === "assistant" ? last.metadata : undefined,
  };
}

// text is the answer's text parts, joined as the Go SDK's Text joins
// separate parts: with a blank line.
export function text(parts) {
  return parts.filter((p) => p.type === "text").map((p) => p.text).join("\n\n");
}

// threadTransport is the useChat thread snippet of docs/assistant.md, run
// as the guide shows it (its import line aside): a DefaultChatTransport that
// sends the thread's ID and key as headers once an answer named them. Its
// relative "/api/chat" is resolved against base, as a page's would be.
export function threadTransport(ai, base) {
  const guide = readFileSync(new URL("../docs/assistant.md", import.meta.url), "utf8");
  const block = /<!-- useChat thread -->\n```js\n([\s\S]*?)```/.exec(guide);
  if (!block) throw new Error("docs/assistant.md has no useChat thread snippet (a js block after <!-- useChat thread -->)");
  const code = block[1].replace(/^import .*$/gm, "");
  const make = new Function("DefaultChatTransport", "fetch", `${code}\nreturn transport;`);
  return make(ai.DefaultChatTransport, (input, init) => fetch(new URL(input, base), init));
}

// post sends one question to an assistant route as a client would, with
// headers and body members added (the API itself wants fp, which a
// browser leaves to the proxy).
export function post(url, question, headers = {}, body = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ messages: [{ id: "q1", role: "user", parts: [{ type: "text", text: question }] }], ...body }),
  });
}

// chromium launches Debian's Chromium (CHROMIUM) through playwright-core,
// headless, with a fresh profile and the host names of hostRules resolved
// as --host-resolver-rules says ("MAP *.test 127.0.0.1"). It returns the
// browser's context and close, which also removes the profile.
export async function chromium(hostRules) {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: env("CHROMIUM"),
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        `--host-resolver-rules=${hostRules}`],
    });
    const close = async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    };
    return { context, close };
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
}
