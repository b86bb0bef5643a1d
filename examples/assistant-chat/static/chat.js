// The browser side of the chat: it posts the conversation to /api/chat and
// reads the answer as an AI SDK v5 UI message stream (server-sent events,
// "data: <JSON>" frames, "data: [DONE]" last), showing the text as it
// arrives. The server's text is shown with textContent only, never as HTML.
"use strict";

// readChatStream reads a fetch Response's stream and calls onChunk with
// each chunk, in order. It resolves at [DONE] and rejects if the stream
// ends before it (a cut answer).
async function readChatStream(response, onChunk) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      throw new Error("the answer broke off");
    }
    // On the whole buffer: a \r\n may be split between two reads.
    buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
      if (data === "") continue;
      if (data === "[DONE]") return;
      onChunk(JSON.parse(data));
    }
  }
}

// ask sends the conversation with the question (and the thread, once there
// is one) and returns the answer's text, sources and thread, calling onText
// with the text so far as it grows. The question joins the conversation
// only with its answer: one refused, cut or never sent is not in the next.
async function ask(url, state, question, onText) {
  const q = { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: question }] };
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
    let message = response.statusText;
    try { message = (await response.json()).message || message; } catch (e) { /* not JSON */ }
    throw new Error(message);
  }
  // The first answer of a thread carries its ID and key; follow-ups send both.
  state.threadId = response.headers.get("X-Thread-Id") || state.threadId;
  state.threadKey = response.headers.get("X-Thread-Key") || state.threadKey;
  let text = "";
  const sources = [];
  await readChatStream(response, (chunk) => {
    switch (chunk.type) {
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
  state.messages.push(q, { id: crypto.randomUUID(), role: "assistant", parts: [{ type: "text", text }] });
  return { text, sources };
}

if (typeof module !== "undefined") {
  module.exports = { readChatStream, ask }; // for the example's test, under node
}

if (typeof document !== "undefined") {
  const state = { messages: [], threadId: "", threadKey: "" };
  const log = document.getElementById("log");
  const form = document.getElementById("ask");
  const input = document.getElementById("question");

  const turn = (role, text) => {
    const div = document.createElement("div");
    div.className = "turn " + role;
    div.textContent = text;
    log.appendChild(div);
    return div;
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question) return;
    input.value = "";
    form.querySelector("button").disabled = true;
    turn("user", question);
    const answer = turn("assistant", "…");
    try {
      const { text, sources } = await ask("/api/chat", state, question, (t) => { answer.textContent = t; });
      answer.textContent = text;
      if (sources.length) {
        const list = document.createElement("div");
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
      }
    } catch (err) {
      answer.classList.add("error");
      answer.textContent = "Error: " + err.message;
    } finally {
      form.querySelector("button").disabled = false;
      input.focus();
    }
  });
}
