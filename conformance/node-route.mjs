// The embedding the vendor recommends, as a Next.js route handler writes
// it, on node's built-ins alone: POST posts the browser's body upstream
// with the key and returns upstream's body as it streams, with no check of
// either. The small adapter around it does what a framework's server does
// with a route handler: it makes a web Request of node's request and
// writes the returned Response to node's response, chunk by chunk. The
// speed benchmark (speed_test.go) measures AssistantProxy against it.
// UPSTREAM_URL is the assistant's message route, UPSTREAM_KEY its key. It
// prints its URL, then serves until killed.
import http from "node:http";
import { once } from "node:events";
import { Readable } from "node:stream";

const upstream = process.env.UPSTREAM_URL;
const key = process.env.UPSTREAM_KEY;
if (!upstream || !key) throw new Error("UPSTREAM_URL and UPSTREAM_KEY must be set");

// POST is the route handler.
async function POST(request) {
  const answer = await fetch(upstream, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: await request.text(),
    signal: request.signal,
  });
  return new Response(answer.body, {
    status: answer.status,
    headers: { "Content-Type": answer.headers.get("Content-Type") ?? "text/event-stream" },
  });
}

const server = http.createServer(async (req, res) => {
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  try {
    const request = new Request(new URL(req.url, "http://127.0.0.1"), {
      method: req.method,
      headers: req.headers,
      body: Readable.toWeb(req),
      duplex: "half",
      signal: gone.signal,
    });
    const response = await POST(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    for await (const chunk of response.body) {
      if (!res.write(chunk)) await once(res, "drain", { signal: gone.signal });
    }
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  }
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
