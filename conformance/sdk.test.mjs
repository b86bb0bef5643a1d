// The AI SDK's own server side (sdk-server.mjs: createUIMessageStream with
// reasoning, tools, sources, files, data parts, an error, an abort, and
// the same answers framed with CR or CRLF line ends, a BOM, no [DONE],
// split frames, comments) read by each release's Chat directly and
// through the proxy: a user sees the same outcome either way. The direct
// outcomes are written to OUTCOMES_FILE for the Go SDK to read the same
// answers against.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { releases, env, chat, outcome, text } from "./lib.mjs";
import { scenarios } from "./sdk-server.mjs";

const sdkServer = (r) => `${env("SDK_SERVER_URL")}/${r.pkg}/v2/assistant/docs.example.com/message`;
const sdkProxy = (r) => JSON.parse(env("SDK_PROXY_URLS"))[r.pkg];

async function ask(r, api, question, headers) {
  let finish;
  const c = await chat(r, { api, headers }, {
    onFinish: (f) => { finish = { isAbort: f.isAbort, isError: f.isError, isDisconnect: f.isDisconnect, finishReason: f.finishReason }; },
  });
  await c.sendMessage({ text: question });
  return { ...outcome(c), finish };
}

// cited is what the Go SDK counts as sources: the pages of source-url
// parts and of the search tool's results, by path.
function cited(parts) {
  const paths = new Set();
  for (const p of parts) {
    if (p.type === "source-url") paths.add(new URL(p.url).pathname.replace(/\/+$/, ""));
    if (p.type === "tool-search" && Array.isArray(p.output)) for (const res of p.output) paths.add("/" + res.path.replace(/^\/+|\/+$/g, ""));
  }
  return [...paths].sort();
}

const outcomes = {};
after(() => writeFileSync(env("OUTCOMES_FILE"), JSON.stringify(outcomes, null, 1)));

for (const r of releases) {
  outcomes[r.pkg] = {};
  for (const name of Object.keys(scenarios)) {
    test(`ai ${r.version}: "${name}" reads the same through the proxy as directly`, async () => {
      const direct = await ask(r, sdkServer(r), name, { Authorization: "Bearer mint_dsc_conformance" });
      outcomes[r.pkg][name] = {
        Status: direct.status, Error: direct.error ?? "", Text: text(direct.parts), Sources: cited(direct.parts),
        FinishReason: direct.finish?.finishReason ?? "",
      };
      assert.ok(direct.parts.length > 0, `${name}: the AI SDK reads its own server's answer`);
      const proxied = await ask(r, sdkProxy(r), name);
      assert.deepEqual(proxied, direct);
    });
  }
}
