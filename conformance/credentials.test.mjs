// Pages of other origins call the assistant proxy in a real Chromium
// (Debian's, driven through playwright-core), as a docs site does whose
// backend is on another host: with the page's session (its cookie and an
// Authorization header of its own) when the proxy allows credentials, and
// not when it does not, as the browser decides; and from an origin the
// proxy was given in Unicode. The Go test (TestCredentialsInChromium)
// starts the servers and passes PAGE_URL (page.test, whose page sets a
// session cookie for page.test and its subdomains), UNICODE_PAGE_URL
// (bücher.test), OTHER_PAGE_URL (an origin not allowed),
// CREDENTIALS_PROXY_URL (a proxy made with WithProxyCredentials, at
// api.page.test), PLAIN_PROXY_URL (one made without), SEEN_URL (what the
// proxies' identity function saw since the last look) and CHROMIUM.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chromium, env } from "./lib.mjs";

let context;
let close;
before(async () => {
  ({ context, close } = await chromium("MAP *.test 127.0.0.1"));
});
after(async () => {
  await close?.();
});

// open loads url in a new page and records what the console and the page
// report.
async function open(url) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  const res = await page.goto(url);
  assert.equal(res.status(), 200);
  return { page, problems };
}

// ask has the page post a question to the proxy at url with fetch's
// credentials mode and headers, and read the answer: its status and
// whether it is whole, or the error fetch threw.
function ask(page, url, credentials, headers = {}) {
  return page.evaluate(async ({ url, credentials, headers }) => {
    try {
      const r = await fetch(url, {
        method: "POST",
        credentials,
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ messages: [{ id: "q1", role: "user", parts: [{ type: "text", text: "What are the rate limits?" }] }] }),
      });
      const body = await r.text();
      return { status: r.status, answered: /Rate limits/.test(body) && body.endsWith("data: [DONE]\n\n") };
    } catch (e) {
      return { error: `${e.name}: ${e.message}` };
    }
  }, { url, credentials, headers });
}

// seen is what the proxies' identity function saw since the last call.
async function seen() {
  const res = await fetch(env("SEEN_URL"));
  assert.equal(res.status, 200);
  return res.json();
}

const origin = (url) => new URL(url).origin;
const auth = { Authorization: "Bearer page-token" };

test("with WithProxyCredentials, a page of an allowed origin sends its cookie and Authorization, and the identity sees both", async () => {
  const { page, problems } = await open(env("PAGE_URL"));
  await seen();
  const got = await ask(page, env("CREDENTIALS_PROXY_URL"), "include", auth);
  assert.deepEqual(got, { status: 200, answered: true }, `what the browser said: ${problems.join("; ")}`);
  assert.deepEqual(await seen(), [
    { Proxy: "credentials", Origin: origin(env("PAGE_URL")), Session: "s-42", Authorization: "Bearer page-token" },
  ]);
  assert.deepEqual(problems, []);
  await page.close();
});

test("without it, the browser refuses to send them: a CORS error, and nothing reaches the proxy's identity", async () => {
  const { page, problems } = await open(env("PAGE_URL"));
  await seen();
  const proxy = env("PLAIN_PROXY_URL");
  const failed = { error: "TypeError: Failed to fetch" };

  // The preflight allows no credentials (no Access-Control-Allow-Credentials),
  // nor an Authorization header.
  assert.deepEqual(await ask(page, proxy, "include"), failed);
  assert.deepEqual(await ask(page, proxy, "same-origin", auth), failed);
  assert.deepEqual(await seen(), [], "no request got past the browser's preflight");
  const cors = problems.filter((p) => p.includes("has been blocked by CORS policy"));
  assert.equal(cors.length, 2, problems.join("\n"));
  assert.match(cors[0], /The value of the 'Access-Control-Allow-Credentials' header in the response is '' which must be 'true' when the request's credentials mode is 'include'/);
  assert.match(cors[1], /Request header field authorization is not allowed by Access-Control-Allow-Headers in preflight response/);

  // Without credentials the same page is answered, and sends no cookie.
  problems.length = 0;
  assert.deepEqual(await ask(page, proxy, "same-origin"), { status: 200, answered: true }, `what the browser said: ${problems.join("; ")}`);
  assert.deepEqual(await seen(), [{ Proxy: "plain", Origin: origin(env("PAGE_URL")), Session: "", Authorization: "" }]);
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
  await page.close();
});

test("an origin given in Unicode matches the page at its punycode host; an origin not given is refused", async () => {
  const { page, problems } = await open(env("UNICODE_PAGE_URL"));
  const punycode = `http://xn--bcher-kva.test:${new URL(env("PAGE_URL")).port}`;
  assert.equal(await page.evaluate(() => location.origin), punycode, "the browser's name for the page's origin");
  await seen();
  assert.deepEqual(await ask(page, env("CREDENTIALS_PROXY_URL"), "include", auth), { status: 200, answered: true },
    `what the browser said: ${problems.join("; ")}`);
  assert.deepEqual(await ask(page, env("PLAIN_PROXY_URL"), "same-origin"), { status: 200, answered: true },
    `what the browser said: ${problems.join("; ")}`);
  assert.deepEqual(await seen(), [
    { Proxy: "credentials", Origin: punycode, Session: "", Authorization: "Bearer page-token" },
    { Proxy: "plain", Origin: punycode, Session: "", Authorization: "" },
  ]);
  assert.deepEqual(problems, []);
  await page.close();

  const other = await open(env("OTHER_PAGE_URL"));
  assert.deepEqual(await ask(other.page, env("PLAIN_PROXY_URL"), "same-origin"), { error: "TypeError: Failed to fetch" });
  assert.deepEqual(await seen(), [], "the proxy refused the preflight");
  assert.ok(other.problems.some((p) => p.includes("has been blocked by CORS policy")), other.problems.join("\n"));
  await other.page.close();
});
