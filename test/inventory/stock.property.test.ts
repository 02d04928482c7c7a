// Stock under concurrent PATCH requests (API document, Inventory PATCH rules 1–3; issue: adjustments
// are atomic, a failed request changes nothing). Several clients each send their requests in order,
// all clients at once; the final stock must be one that some sequential order of the same requests
// produces (the model), and each answer must be the one the model gives that request.
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { amountArb, RUNS, type Amount } from "./arbitraries.ts";
import { COLLECTIONS } from "./fixtures.ts";
import { inventoryWorld, type World } from "./harness.ts";

/** One request and what it does to the stock, in millionths. */
interface Op {
  body: Record<string, unknown>;
  status: number;
  text: string | RegExp;
  apply(micro: number): number;
}

const keep = (m: number) => m;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  amountArb.map((a): Op => ({ body: { inventory_adjust: a.value }, status: 200, text: "Updated", apply: (m) => m + a.micro })),
  amountArb.map((a): Op => ({ body: { inventory: a.value }, status: 200, text: "Updated", apply: () => a.micro })),
  fc.tuple(amountArb, amountArb).map(([s, a]): Op => ({ body: { inventory: s.value, inventory_adjust: a.value }, status: 200, text: "Updated", apply: () => s.micro })),
  fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), amountArb).map(([name, a]): Op => ({
    body: { name, inventory_adjust: a.value }, status: 200, text: "Updated", apply: (m) => m + a.micro,
  })),
  fc.tuple(fc.string({ maxLength: 6 }), amountArb).map(([notes, s]): Op => ({ body: { notes, inventory: s.value }, status: 200, text: "Updated", apply: () => s.micro })),
  fc.string({ maxLength: 6 }).map((notes): Op => ({ body: { notes }, status: 200, text: "Updated", apply: keep })),
  // Refused requests: each must leave the stock exactly as it was.
  amountArb.map((a): Op => ({ body: { inventory_adjust: `${a.value}kg` }, status: 400, text: "Invalid inventory_adjust", apply: keep })),
  amountArb.map((a): Op => ({ body: { inventory: `${a.value}x`, inventory_adjust: a.value }, status: 400, text: "Invalid inventory", apply: keep })),
  amountArb.map((a): Op => ({ body: { name: "", inventory_adjust: a.value }, status: 400, text: /^\[\{"path":"name"/, apply: keep })),
);

/** Every stock some interleaving of the clients' sequences can end at (positions × reachable values). */
function reachable(start: number, clients: readonly Op[][]): Set<number> {
  const memo = new Map<string, Set<number>>();
  const visit = (pos: number[], stock: number, out: Set<number>) => {
    const key = `${pos.join(",")}|${stock}`;
    if (memo.has(key)) {
      for (const v of memo.get(key)!) out.add(v);
      return;
    }
    const here = new Set<number>();
    let done = true;
    clients.forEach((ops, i) => {
      if (pos[i]! >= ops.length) return;
      done = false;
      const next = [...pos];
      next[i]!++;
      visit(next, ops[pos[i]!]!.apply(stock), here);
    });
    if (done) here.add(stock);
    memo.set(key, here);
    for (const v of here) out.add(v);
  };
  const out = new Set<number>();
  visit(clients.map(() => 0), start, out);
  return out;
}

let w: World;
beforeAll(async () => {
  w = await inventoryWorld({ empty: true });
});

async function item(c: string, start: Amount): Promise<string> {
  const res = await w.call("POST", `/v2/inventory/${c}`, "alice", { body: { name: "Stock", inventory: start.micro / 1e6 } });
  return res.json().id;
}

describe("stock under concurrent requests", () => {
  test("any interleaving of adjust/set/partial requests ends at a stock a sequential order predicts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COLLECTIONS),
        amountArb,
        fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        async (c, start, clients) => {
          const id = await item(c, start);
          const url = `/v2/inventory/${c}/${id}`;
          const answers = await Promise.all(
            clients.map(async (ops) => {
              const got: Array<{ status: number; text: string }> = [];
              for (const op of ops) {
                const res = await w.call("PATCH", url, "alice", { body: op.body });
                got.push({ status: res.status, text: res.text });
              }
              return got;
            }),
          );
          clients.forEach((ops, i) =>
            ops.forEach((op, j) => {
              expect(answers[i]![j]!.status).toBe(op.status);
              expect(answers[i]![j]!.text).toMatch(op.text instanceof RegExp ? op.text : new RegExp(`^${op.text}$`));
            }),
          );
          const doc = (await w.read("alice", c, id))!;
          const possible = [...reachable(start.micro, clients)].map((m) => m / 1e6);
          expect(possible).toContain(doc.inventory as number);
          expect("inventory_adjust" in doc).toBe(false);
        },
      ),
      RUNS(120),
    );
  });

  test("N concurrent adjustments, some refused, change the stock by exactly the sum of the accepted ones", async () => {
    const adjustments = fc.array(
      fc.oneof(
        { weight: 4, arbitrary: amountArb.map((a) => ({ ok: true, micro: a.micro, body: { inventory_adjust: a.value } as Record<string, unknown> })) },
        { weight: 1, arbitrary: amountArb.map((a) => ({ ok: false, micro: 0, body: { inventory_adjust: `${a.value}?` } as Record<string, unknown> })) },
        { weight: 1, arbitrary: amountArb.map((a) => ({ ok: false, micro: 0, body: { hidden: "yes", inventory_adjust: a.value } as Record<string, unknown> })) },
      ),
      { minLength: 1, maxLength: 40 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COLLECTIONS), amountArb, adjustments, async (c, start, adj) => {
        const id = await item(c, start);
        const answers = await Promise.all(adj.map((a) => w.call("PATCH", `/v2/inventory/${c}/${id}`, "alice", { body: a.body })));
        expect(answers.map((r) => r.status)).toEqual(adj.map((a) => (a.ok ? 200 : 400)));
        const sum = adj.reduce((s, a) => s + a.micro, start.micro);
        expect(await w.stock("alice", c, id)).toBe(sum / 1e6);
      }),
      RUNS(60),
    );
  });
});

test("the model: two clients, set then adjust against adjust, reach exactly the two orders' results", () => {
  const op = (apply: (m: number) => number): Op => ({ body: {}, status: 200, text: "Updated", apply });
  const got = reachable(10, [[op(() => 100), op((m) => m + 1)], [op((m) => m + 5)]]);
  // 5 first: set 100, +1 → 101; set first: 100+5+1 or 100+1+5 → 106.
  expect([...got].sort((a, b) => a - b)).toEqual([101, 106]);
});
