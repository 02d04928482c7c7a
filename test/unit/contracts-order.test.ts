import { describe, expect, test } from "bun:test";
import { outOfOrder } from "../../contracts/checks/paging.ts";

// The kit's order check is neutral on how text is ordered, which the API document does not show: a
// server sorting by code unit and one sorting by a language's collation both pass; an order that no
// such rule gives fails, naming the pair.
const entries = (...names: Array<string | number>) => names.map((name, i) => ({ _id: `r${i}`, name }));

describe("outOfOrder", () => {
  test("code-unit order and a language's order of the same names both pass, either direction", () => {
    const byCodeUnit = ["Cascade", "Zythos", "a-c", "ab", "amber"];
    const byLanguage = ["a-c", "ab", "amber", "Cascade", "Zythos"];
    // As glibc's en_US collation orders them: punctuation ignored at first.
    const punctuationIgnored = ["ab", "a-c", "amber", "Cascade", "Zythos"];
    for (const names of [byCodeUnit, byLanguage, punctuationIgnored]) {
      expect(outOfOrder(entries(...names), "name", "asc")).toBeUndefined();
      expect(outOfOrder(entries(...[...names].reverse()), "name", "desc")).toBeUndefined();
    }
  });

  test("a pair that every order inverts fails, named with its ids and values", () => {
    expect(outOfOrder(entries("amber", "Zythos", "Cascade"), "name", "asc")).toEqual({ entry: { _id: "r2", name: "Cascade" }, text: 'r1 ("Zythos") before r2 ("Cascade")' });
    expect(outOfOrder(entries("bock", "ale"), "name", "asc")?.text).toBe('r0 ("bock") before r1 ("ale")');
    expect(outOfOrder(entries("ale", "bock"), "name", "desc")?.text).toBe('r0 ("ale") before r1 ("bock")');
  });

  test("numbers by value; values of different kinds are not compared", () => {
    expect(outOfOrder(entries(2, 10, 100), "name", "asc")).toBeUndefined();
    expect(outOfOrder(entries(10, 2), "name", "asc")?.text).toBe("r0 (10) before r1 (2)");
    expect(outOfOrder(entries(10, "a", 2), "name", "asc")).toBeUndefined();
  });
});
