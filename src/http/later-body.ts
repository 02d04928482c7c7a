// Bun (1.4.5) sends a response completed after an await in one write only when its head and body fit
// the socket's 16 KiB cork buffer. Past that, every header line goes out as four writes of its own
// (name, ": ", value, line end), each a TCP segment the client is woken for: about 40 writes for an
// API answer with its request id and rate fields, where the synchronous answers of the SQLite store go
// in one. A body handed over as a stream that writes it at once is sent after the head, and the head
// then goes in one write: two in all, the answer framed chunked instead of by Content-Length.
// Measured on PostgreSQL (docs/performance.md, PostgreSQL): a 15 KB batch cost the server 370 µs of
// CPU a request answered whole, 145 µs answered this way.

const encoder = new TextEncoder();

/** Bodies up to this many bytes fit the cork buffer with the head of an API answer. */
export const CORKED_BODY_BYTES = 14 * 1024;

/** The body of an answer completed after an await: as is when it fits the cork buffer, else a stream of one write. */
export function laterBody(body: string | Uint8Array<ArrayBuffer>): string | Uint8Array<ArrayBuffer> | ReadableStream {
  // A string's length never exceeds its UTF-8 size, so a string kept as is may still be larger: sent whole, only slower.
  if ((typeof body === "string" ? body.length : body.byteLength) <= CORKED_BODY_BYTES) return body;
  return new ReadableStream({
    start(sink) {
      sink.enqueue(typeof body === "string" ? encoder.encode(body) : body);
      sink.close();
    },
  });
}
