// The browser side of the chat: it posts the conversation to /api/chat and
// reads the answer as an AI SDK v5 UI message stream (server-sent events,
// "data: <JSON>" frames, "data: [DONE]" last), showing the text as it
// arrives. The answer's Markdown is rendered by building elements and
// text nodes, never by parsing HTML: the server's text cannot add markup.
// No API here needs a secure context (no crypto.randomUUID), so the page
// works over plain HTTP on any host name its server allows.
"use strict";

// readChatStream reads a fetch Response's stream and calls onChunk with
// each chunk, in order. It resolves at [DONE], or at the end of a stream
// whose last chunk was a finish or an abort (the server stopped the
// answer), as the AI SDK does, and rejects if the stream ends before
// either (a cut answer). Lines end at CRLF, LF or a lone CR, as a
// browser's EventSource reads them.
async function readChatStream(response, onChunk) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data = [];
  let finished = false;
  for (;;) {
    const { value, done } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A CR last in what arrived may be the first half of a CRLF: wait
      // for the next read, unless there is none.
      if (buffer[end] === "\r" && end === buffer.length - 1 && !done) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
      if (line !== "") {
        if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        continue;
      }
      const frame = data.join("\n");
      data = [];
      if (frame === "") continue;
      if (frame === "[DONE]") return;
      const chunk = JSON.parse(frame);
      finished = chunk.type === "finish" || chunk.type === "abort";
      onChunk(chunk);
    }
    if (done) {
      if (finished) return;
      throw new Error("the answer broke off");
    }
  }
}

// newID names a message: unique within the page, which is all the proxy
// asks of it.
let idCount = 0;
function newID() {
  idCount += 1;
  return "m" + Date.now().toString(36) + idCount.toString(36) + Math.random().toString(36).slice(2, 8);
}

// ask sends the conversation with the question (and the thread, once there
// is one) and returns the answer's text, sources and thread, calling onText
// with the text so far as it grows. The question joins the conversation
// only with its answer: one refused, cut or never sent is not in the next.
// A refusal's error carries the HTTP status and Retry-After (seconds).
async function ask(url, state, question, onText) {
  const q = { id: newID(), role: "user", parts: [{ type: "text", text: question }] };
  const body = { messages: [...state.messages, q] };
  if (state.threadId) {
    body.threadId = state.threadId;
    body.threadKey = state.threadKey;
  }
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    let message = response.statusText || "the request failed";
    try { message = (await response.json()).message || message; } catch (e) { /* not JSON */ }
    const err = new Error(message);
    err.status = response.status;
    err.retryAfter = Number(response.headers.get("Retry-After")) || 0;
    throw err;
  }
  // The first answer of a thread carries its ID and key; follow-ups send both.
  state.threadId = response.headers.get("X-Thread-Id") || state.threadId;
  state.threadKey = response.headers.get("X-Thread-Key") || state.threadKey;
  let text = "";
  const sources = [];
  await readChatStream(response, (chunk) => {
    switch (chunk.type) {
      case "text-start":
        if (text) text += "\n\n"; // a new part is a new paragraph
        break;
      case "text-delta":
        text += chunk.delta;
        onText(text);
        break;
      case "source-url":
        sources.push({ url: chunk.url, title: chunk.title || chunk.url });
        break;
      case "error":
        throw new Error(chunk.errorText || "the assistant failed");
    }
  });
  state.messages.push(q, { id: newID(), role: "assistant", parts: [{ type: "text", text }] });
  return { text, sources };
}

// describe says in a sentence what went wrong with a question.
function describe(err) {
  if (err.status === 429) {
    return "Too many questions for now (" + err.message + ")" + (err.retryAfter ? ": try again in " + err.retryAfter + " s." : ".");
  }
  if (err.status) return "The server refused the question (" + err.status + "): " + err.message + ".";
  if (err instanceof TypeError) return "The server could not be reached: check your connection and try again.";
  return "The answer stopped: " + err.message + ".";
}

// --- Markdown --------------------------------------------------------------

// parseMarkdown reads the little Markdown an answer uses into blocks:
// paragraphs, headings, lists (- * + or 1.), fenced code; within them,
// links, `code`, **bold** and *emphasis*. Anything else stays text.
function parseMarkdown(md) {
  const blocks = [];
  const lines = md.replace(/\r\n?/g, "\n").split("\n");
  let para = [];
  let list = null;
  const endPara = () => {
    if (para.length) blocks.push({ type: "p", inline: parseInline(para.join(" ")) });
    para = [];
  };
  const endList = () => {
    if (list) blocks.push(list);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      endPara();
      endList();
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) code.push(lines[i]);
      blocks.push({ type: "code", text: code.join("\n") });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (line.trim() === "") {
      endPara();
      endList();
    } else if (heading) {
      endPara();
      endList();
      blocks.push({ type: "h", level: heading[1].length, inline: parseInline(heading[2]) });
    } else if (item) {
      endPara();
      const type = item[1] ? "ul" : "ol";
      if (list && list.type !== type) endList();
      if (!list) list = { type, items: [] };
      list.items.push(parseInline(item[3]));
    } else if (list && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1].push({ type: "text", text: " " }, ...parseInline(line.trim()));
    } else {
      endList();
      para.push(line.trim());
    }
  }
  endPara();
  endList();
  return blocks;
}

// parseInline reads a line's links (a target may hold one level of
// balanced parentheses), code, bold and emphasis.
function parseInline(s) {
  const out = [];
  const re = /`([^`]+)`|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;
  let at = 0;
  let m;
  while ((m = re.exec(s))) {
    if (m.index > at) out.push({ type: "text", text: s.slice(at, m.index) });
    if (m[1] !== undefined) out.push({ type: "code", text: m[1] });
    else if (m[2] !== undefined) out.push(link(m[3], parseInline(m[2])));
    else if (m[4] !== undefined) out.push({ type: "strong", children: parseInline(m[4]) });
    else if (m[5] !== undefined) out.push({ type: "em", children: parseInline(m[5]) });
    else out.push(link(m[6], [{ type: "text", text: m[6] }]));
    at = re.lastIndex;
  }
  if (at < s.length) out.push({ type: "text", text: s.slice(at) });
  return out;
}

// link is a link to an http(s) URL or a path of this site; any other
// target (javascript:, data:...) is its text alone.
function link(href, children) {
  children = children.map((c) => (c.type === "link" ? { type: "span", children: c.children } : c)); // no link in a link
  if (/^https?:\/\//i.test(href) || /^\/(?!\/)/.test(href)) return { type: "link", href, children };
  return { type: "span", children };
}

// renderMarkdown builds md's blocks as elements of doc, with text nodes
// only for the text: no HTML is ever parsed.
function renderMarkdown(doc, md) {
  const frag = doc.createDocumentFragment();
  const inline = (parent, nodes) => {
    for (const n of nodes) {
      if (n.type === "text") {
        parent.appendChild(doc.createTextNode(n.text));
        continue;
      }
      const el = doc.createElement({ code: "code", strong: "strong", em: "em", link: "a", span: "span" }[n.type]);
      if (n.type === "code") el.textContent = n.text;
      else inline(el, n.children);
      if (n.type === "link") {
        el.href = n.href;
        el.rel = "noopener noreferrer";
        el.target = "_blank";
      }
      parent.appendChild(el);
    }
  };
  for (const b of parseMarkdown(md)) {
    let el;
    if (b.type === "code") {
      el = doc.createElement("pre");
      const code = doc.createElement("code");
      code.textContent = b.text;
      el.appendChild(code);
    } else if (b.type === "ul" || b.type === "ol") {
      el = doc.createElement(b.type);
      for (const item of b.items) {
        const li = doc.createElement("li");
        inline(li, item);
        el.appendChild(li);
      }
    } else {
      el = doc.createElement(b.type === "h" ? "h" + Math.min(b.level + 2, 6) : "p");
      inline(el, b.inline);
    }
    frag.appendChild(el);
  }
  return frag;
}

if (typeof module !== "undefined") {
  module.exports = { readChatStream, ask, describe, parseMarkdown }; // for the example's test, under node
}

if (typeof document !== "undefined") {
  const state = { messages: [], threadId: "", threadKey: "" };
  const log = document.getElementById("log");
  const form = document.getElementById("ask");
  const input = document.getElementById("question");
  const button = form.querySelector("button");

  const turn = (role) => {
    const div = document.createElement("div");
    div.className = "turn " + role;
    log.appendChild(div);
    return div;
  };

  const showSources = (answer, sources) => {
    const list = document.createElement("p");
    list.className = "sources";
    list.append("Sources: ");
    sources.forEach((s, i) => {
      if (i) list.append(", ");
      if (/^https?:\/\//.test(s.url)) {
        const a = document.createElement("a");
        a.href = s.url;
        a.textContent = s.title;
        a.rel = "noopener noreferrer";
        a.target = "_blank";
        list.appendChild(a);
      } else {
        list.append(s.title);
      }
    });
    answer.appendChild(list);
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const question = input.value.trim() || input.placeholder;
    input.value = "";
    button.disabled = true;
    turn("user").textContent = question;
    const answer = turn("assistant");
    answer.dataset.state = "waiting";
    answer.textContent = "…";
    const body = document.createElement("div");
    let shown = "";
    try {
      const { text, sources } = await ask("/api/chat", state, question, (t) => {
        if (answer.dataset.state === "waiting") {
          answer.textContent = "";
          answer.appendChild(body);
          answer.dataset.state = "streaming";
        }
        shown = t;
        body.replaceChildren(renderMarkdown(document, t));
      });
      body.replaceChildren(renderMarkdown(document, text));
      if (answer.dataset.state === "waiting") answer.replaceChildren(body);
      if (sources.length) showSources(answer, sources);
      answer.dataset.state = "done";
    } catch (err) {
      // What arrived stays; a line below says what happened.
      if (!shown) answer.textContent = "";
      const note = document.createElement("p");
      note.className = "error";
      note.setAttribute("role", "alert");
      note.textContent = describe(err);
      answer.appendChild(note);
      answer.dataset.state = "error";
    } finally {
      button.disabled = false;
      input.focus();
    }
  });
}
