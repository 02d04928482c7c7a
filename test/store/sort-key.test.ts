import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { keyOfPosition, positionKey } from "../../src/store/sort-key.ts";

// A position key must order as SQLite orders the (key, id) pair it stands for. Checked against
// SQLite itself: the pairs in columns without affinity (numbers stay numbers, texts texts) ordered by
// both columns, and their position keys in a TEXT column ordered alone, must give the same rows.
const db = new Database(":memory:");
db.exec("CREATE TABLE pairs (n INTEGER PRIMARY KEY, k NOT NULL, id NOT NULL, position TEXT NOT NULL)");
const insert = db.prepare("INSERT INTO pairs (n, k, id, position) VALUES (?, ?, ?, ?)");
const byPair = db.prepare("SELECT n FROM pairs ORDER BY k, id, n");
const byPosition = db.prepare("SELECT n FROM pairs ORDER BY position, n");

const key = fc.oneof(
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.constantFrom(-Infinity, -0, 0, 5e-324, -5e-324, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), Number.MAX_VALUE, -Number.MAX_VALUE),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
  // Texts holding NULs, texts that begin others, and the bytes either side of the text's end mark.
  fc.constantFrom("", "\u0000", "\u0000\u0000", "\u0001", "a", "a\u0000", "a\u0000\u0001", "a\u0001", "a\u0000b", "ab", "é", "\uffff", "😀"),
);
const id = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("", "a", "a\u0000", "ab", "é"));

test("position keys order as SQLite orders (key, id), for any numbers and texts", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(key, id), { maxLength: 30 }), (pairs) => {
      db.exec("DELETE FROM pairs");
      pairs.forEach(([k, i], n) => insert.run(n, k, i, positionKey(k, i)));
      expect(byPosition.values()).toEqual(byPair.values());
    }),
    { numRuns: 300 },
  );
});

test("a position key gives back the key it was made from", () => {
  fc.assert(
    fc.property(key, id, (k, i) => {
      const back = keyOfPosition(positionKey(k, i));
      // -0 is kept as 0: SQLite compares them equal, and JSON writes both as 0.
      expect(back).toBe(Object.is(k, -0) ? 0 : k);
    }),
    { numRuns: 2000 },
  );
});

test("the encoding, written out", () => {
  expect(positionKey(1, "x")).toBe("nbff0000000000000x");
  expect(positionKey(-1, "x")).toBe("n400fffffffffffffx");
  expect(positionKey(-Infinity, "")).toBe("n000fffffffffffff");
  expect(positionKey(-0, "x")).toBe(positionKey(0, "x"));
  expect(positionKey("a\u0000b", "x")).toBe("ta\u0000\u0001b\u0000\u0000x");
});
