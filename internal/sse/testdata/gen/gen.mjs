// Writes ../vectors.json: for each input below, the data of the events
// that the AI SDK's chat client reads from it. The pipeline is the AI
// SDK's own (parseJsonEventStream in @ai-sdk/provider-utils): the body's
// bytes through a TextDecoderStream, then eventsource-parser's
// EventSourceParserStream, at the version ai@5.0.216 and ai@7 resolve.
//
// Each input is read whole, a byte at a time, in pieces of 2, 3 and 7
// bytes, and cut in two at every byte. The events are those read whole;
// a cutting that reads others is listed under "otherwise" (the parser
// acts on a CR that ends a line only once a later read holds another line
// end: an event so ended may be dropped at the end of the body, or not,
// depending on how the bytes came). The Go reader reads the same events
// at every cutting: those read whole.
//
// Run: npm ci && node gen.mjs (from this folder).

import { writeFileSync, readFileSync } from 'node:fs'
import { EventSourceParserStream } from 'eventsource-parser/stream'

const d = (s) => `{"type":"text-delta","id":"t","delta":"${s}"}`
const fin = '{"type":"finish"}'
const long = 'y'.repeat(33 << 10) // longer than the Go reader's 32 KiB buffer

// [name, input]: every input is valid UTF-8, as the parser reads text.
const inputs = [
  ['LF', `data: ${d('a')}\n\ndata: ${fin}\n\ndata: [DONE]\n\n`],
  ['CRLF', `data: ${d('a')}\r\n\r\ndata: ${fin}\r\n\r\ndata: [DONE]\r\n\r\n`],
  ['lone CR', `data: ${d('a')}\r\rdata: ${fin}\r\rdata: [DONE]\r\r`],
  ['lone CR, more after the last', `data: ${d('a')}\r\rdata: ${fin}\r\r: end\n`],
  ['CR LF and CRLF mixed', `data: ${d('a')}\r\ndata: ${d('b')}\n\rdata: ${fin}\r\r\ndata: x\n\r\n`],
  ['CR then LF is one line end', `data: a\r\ndata: b\r\n\r\n`],
  ['LF then CR is two', `data: a\n\rdata: b\n\n`],
  ['a CR inside a line ends it', `data: {"type":"te\rxt-delta"}\n\ndata: ok\n\n`],
  ['a CR smuggles a frame', `data: {"type":"text-delta","id":"t","delta":"hi"}\r\rdata: {"type":"error","errorText":"x"}\n\n`],
  ['byte order mark', `\ufeffdata: ${d('a')}\n\ndata: ${fin}\n\n`],
  ['two byte order marks', `\ufeff\ufeffdata: a\n\ndata: b\n\n`],
  ['a byte order mark later', `data: a\n\n\ufeffdata: b\n\ndata: c\n\n`],
  ['a byte order mark alone', '\ufeff'],
  ['a byte order mark and an empty line', '\ufeff\n'],
  ['comments', `: hello\n\n: keep-alive\ndata: a\n: between\n\n:\n\ndata: b\n\n`],
  ['no space after the colon', 'data:a\n\ndata:b\n\n'],
  ['two spaces: one is the value\'s', 'data:  a\n\n'],
  ['a tab is kept', 'data:\ta\n\n'],
  ['multi-line data joins with LF', 'data: {"type":"x",\ndata:\ndata: "a":1}\n\n'],
  ['multi-line data with CR', 'data: one\rdata: two\r\ndata: three\n\r'],
  ['data alone is an empty value', 'data\ndata: a\n\ndata\n\n'],
  ['empty data', 'data:\n\ndata: \n\n'],
  ['other fields', `event: message\nid: 7\nretry: 1000\nretry: x\nunknown\nunknown: v\ndata: a\n\nid: 8\n\nevent: x\n\ndata: b\n\n`],
  ['field names are case-sensitive', 'Data: a\n\nDATA: b\n\ndata: c\n\n'],
  ['a space before the name', ' data: a\n\ndata: b\n\n'],
  ['a space before the colon', 'data : a\n\ndata: b\n\n'],
  ['prefixes of data', 'd\nda\ndat\ndata\ndatum: x\ndatadata: y\n\n'],
  ['blank lines between events', '\n\n\ndata: a\n\n\n\ndata: b\n\n\n'],
  ['an event without its empty line at the end', 'data: a\n\ndata: b\n'],
  ['an event without its line end at the end', 'data: a\n\ndata: b'],
  ['an event whose empty line is a CR at the very end', 'data: a\n\ndata: b\n\r'],
  ['an event whose empty line is a CR, then a byte', 'data: a\n\ndata: b\n\r:'],
  ['an event whose empty line is CRLF at the end', 'data: a\n\ndata: b\r\n\r\n'],
  ['a CR at the very end of a data line', 'data: a\n\ndata: b\r'],
  ['nothing', ''],
  ['only comments', ': a\n: b\r: c\r\n'],
  ['only line ends', '\n\r\n\r\r\n\n'],
  ['UTF-8 in data', 'data: {"delta":"héllo — 世界 🙂"}\n\n'],
  ['UTF-8 in names and comments', ': 🙂\ndätä: x\ndata: ok\n\n'],
  ['NUL and controls in data', 'data: a\u0000b\u0001c\u007f\n\n'],
  ['a line longer than a read buffer', `data: ${d(long)}\n\ndata: ${fin}\n\n`],
  ['a comment longer than a read buffer', `:${long}\ndata: a\n\n`],
  ['a long line with CR ends', `data: ${long.slice(0, 5000)}\rdata: ${long.slice(0, 5000)}\r\r\n`],
  ['[DONE]', 'data: [DONE]\n\n'],
  ['JSON that is not a chunk', 'data: null\n\ndata: {}\n\ndata: [1,2]\n\ndata: "s"\n\ndata: not json\n\n'],
  ['the AI SDK answer', [
    '{"type":"start","messageId":"m1"}',
    '{"type":"start-step"}',
    '{"type":"text-start","id":"t1"}',
    d('Hello'),
    d(' world'),
    '{"type":"text-end","id":"t1"}',
    '{"type":"finish-step"}',
    fin,
  ].map((c) => `data: ${c}\n\n`).join('') + 'data: [DONE]\n\n'],
]

async function parse(chunks) {
  const body = new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c)
      controller.close()
    },
  })
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  const events = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return events
    events.push(value.data)
  }
}

function pieces(bytes, size) {
  const out = []
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size))
  return out
}

function cuttings(bytes) {
  const out = [['whole', [bytes]]]
  for (const size of [1, 2, 3, 7]) out.push([`pieces of ${size}`, pieces(bytes, size)])
  if (bytes.length <= 4096) {
    for (let at = 1; at < bytes.length; at++) {
      out.push([`cut at ${at}`, [bytes.subarray(0, at), bytes.subarray(at)]])
    }
  }
  return out
}

const encoder = new TextEncoder()
const vectors = []
for (const [name, input] of inputs) {
  const bytes = encoder.encode(input)
  const events = await parse([bytes])
  const otherwise = []
  for (const [how, chunks] of cuttings(bytes)) {
    const got = await parse(chunks)
    if (JSON.stringify(got) !== JSON.stringify(events)) otherwise.push({ read: how, events: got })
  }
  vectors.push(otherwise.length ? { name, input, events, otherwise } : { name, input, events })
}

const version = JSON.parse(readFileSync('node_modules/eventsource-parser/package.json', 'utf8')).version
const out = {
  comment: 'Written by testdata/gen/gen.mjs: do not edit. Each input, read by the AI SDK\'s pipeline (TextDecoderStream, then eventsource-parser\'s EventSourceParserStream), yields the data of these events when read whole, and of those under otherwise when cut as they say.',
  parser: `eventsource-parser@${version}`,
  vectors,
}
writeFileSync('../vectors.json', JSON.stringify(out, null, 1) + '\n')
console.log(`wrote ../vectors.json: ${vectors.length} inputs, parser ${out.parser}`)
