import { APPEND_FROM, type Comparison, type Load, type Target } from "./scenarios.ts";

// Before a comparison is measured, one request to each side: a baseline answering otherwise than the
// server makes the ratio meaningless.

/** Each baseline must give what the server gives, or the ratio means nothing. */
export async function checkAnswers<T extends string = Target>(urlOf: (t: T) => string, c: Comparison<T>): Promise<string[]> {
  const problems: string[] = [];
  const fetchOnce = async (l: Load<T>) => {
    const url = urlOf(l.target) + (l.env ? "" : l.path);
    if (!l.env) return fetch(url, { headers: l.auth ? { authorization: l.auth } : {} });
    if (l.env.BENCH_MODE === "stream") {
      const body = '{"name":"bench-check","temp":18.5,"gravity":1.012,"gravity_unit":"G"}';
      return fetch(`${url}/stream?id=${l.env.BENCH_LOGGING_ID}`, { method: "POST", body, headers: { "content-type": "application/json" } });
    }
    if (l.env.BENCH_MODE === "append") {
      const body = `{"time":${APPEND_FROM},"sg":1.01,"temp":18.5}`;
      return fetch(`${url}/v2/batches/${l.env.BENCH_IDS}/readings`, { method: "POST", body, headers: { authorization: l.auth!, "content-type": "application/json" } });
    }
    const path = l.env.BENCH_MODE === "adjust" ? `${l.env.BENCH_BASE}/${l.env.BENCH_IDS.split(",")[0]}` : `/v2/batches/${l.env.BENCH_IDS.split(",")[0]}`;
    const body = l.env.BENCH_MODE === "adjust" ? '{"inventory_adjust":0}' : '{"measuredOg":1.05}';
    return fetch(url + path, { method: "PATCH", body, headers: { authorization: l.auth!, "content-type": "application/json" } });
  };
  const [a, b] = await Promise.all([fetchOnce(c.subject), fetchOnce(c.baseline)]);
  const [ta, tb] = await Promise.all([a.text(), b.text()]);
  const expected = c.subject.env?.BENCH_MODE === "append" ? 201 : 200;
  if (a.status !== expected || b.status !== expected) problems.push(`${c.id}: status ${a.status} (server) / ${b.status} (${c.baseline.target})`);
  else if (c.kind === "ratio" && c.baseline.target !== "json-server" && ta !== tb) problems.push(`${c.id}: the ${c.baseline.target} answer differs from the server's`);
  else if (c.kind === "cost" && !sameLength(ta, tb)) problems.push(`${c.id}: the two requests answer lists of different lengths`);
  return problems;
}

/** Two requests compared by cost must return as much: lists of the same length (other answers pass). */
function sameLength(a: string, b: string): boolean {
  const length = (text: string) => {
    try {
      const v: unknown = JSON.parse(text);
      return Array.isArray(v) ? v.length : undefined;
    } catch {
      return undefined;
    }
  };
  const [la, lb] = [length(a), length(b)];
  return la === undefined || lb === undefined || la === lb;
}
