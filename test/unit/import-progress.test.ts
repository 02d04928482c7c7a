// The import's progress line (README, Accounts, keys and data): on a terminal, rewritten in place at
// most every 100 ms; nothing but the final line elsewhere.
import { expect, test } from "bun:test";
import { importProgress } from "../../src/cli/progress.ts";
import { parseImport } from "../../src/import.ts";

function terminal(isTTY: boolean) {
  const written: string[] = [];
  return { out: { isTTY, write: (s: string) => written.push(s) }, written };
}

test("on a terminal the line shows the first, every 100 ms and the last count, then the writing, then clears", () => {
  const { out, written } = terminal(true);
  let clock = 0;
  const line = importProgress(out, () => clock);
  line.checked(1, 1000);
  clock = 50;
  line.checked(2, 1000);
  clock = 150;
  line.checked(3, 1000);
  clock = 160;
  line.checked(1000, 1000);
  line.writing(1000);
  line.end();
  expect(written).toEqual([
    "\r\x1b[2Kimport: checked 1 of 1000 documents (0%)",
    "\r\x1b[2Kimport: checked 3 of 1000 documents (0%)",
    "\r\x1b[2Kimport: checked 1000 of 1000 documents (100%)",
    "\r\x1b[2Kimport: writing 1000 documents in one transaction…",
    "\r\x1b[2K",
    "\r",
  ]);
});

test("a pipe or a log file gets no progress line", () => {
  const { out, written } = terminal(false);
  const line = importProgress(out, () => 0);
  line.checked(1, 2);
  line.checked(2, 2);
  line.writing(2);
  line.end();
  expect(written).toEqual([]);
});

test("parseImport reports each element checked, over every section, with the total of all of them", () => {
  const calls: Array<[number, number]> = [];
  parseImport({ batches: [{ _id: "b1" }, { _id: "b2" }], hops: [{ _id: "h1", name: "Saaz" }] }, undefined, (done, total) => calls.push([done, total]));
  expect(calls).toEqual([[1, 3], [2, 3], [3, 3]]);
});
