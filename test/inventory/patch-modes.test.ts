// PATCH /v2/inventory/{collection}/{id}, its two modes (API document: Endpoints › Inventory, the
// PATCH table and rules 1–4; Errors: `Invalid inventory`, `Invalid inventory_adjust`, the array of
// validation errors). Every scenario checks the stored item afterwards.
import { describe } from "bun:test";
import { COLLECTIONS, FIELD, ITEMS } from "./fixtures.ts";
import { runTable, type Scenario } from "./harness.ts";
import { NOT_NUMBERS, NUMBERS, patchOf, show, stored, unchanged } from "./patch-checks.ts";

const TYPE_ISSUE = { path: "inventory", rule: "type", message: "inventory must be number or null" };

for (const c of COLLECTIONS) {
  const patch = patchOf(c);
  const stock = ITEMS[c].inventory as number;
  const { field, good, bad, issue } = FIELD[c];

  describe(`${c}: inventory-only mode (rule 1) changes only the stock`, () => {
    const table: Scenario[] = [
      ...NUMBERS.map(([v, n]) => patch(`inventory ${show(v)} sets the stock to ${n}`, { inventory: v }, 200, "Updated", stored(c, { inventory: n }))),
      ...NUMBERS.map(([v, n]) =>
        patch(`inventory_adjust ${show(v)} adds ${n} to the stock`, { inventory_adjust: v }, 200, "Updated", stored(c, { inventory: stock + n })),
      ),
      patch("inventory wins over inventory_adjust when both are sent", { inventory: 7, inventory_adjust: 5 }, 200, "Updated", stored(c, { inventory: 7 })),
      patch("inventory wins over inventory_adjust as numeric strings too", { inventory: "7", inventory_adjust: "5" }, 200, "Updated", stored(c, { inventory: 7 })),
      patch("inventory 0 with inventory_adjust 5 sets 0", { inventory: 0, inventory_adjust: 5 }, 200, "Updated", stored(c, { inventory: 0 })),
      patch("inventory_adjust 0 is an update that keeps the amount", { inventory_adjust: 0 }, 200, "Updated", stored(c, { inventory: stock })),
      ...NOT_NUMBERS.map((v) => patch(`inventory ${show(v)} is 400 Invalid inventory, nothing changes`, { inventory: v }, 400, "Invalid inventory", unchanged(c))),
      ...NOT_NUMBERS.map((v) =>
        patch(`inventory_adjust ${show(v)} is 400 Invalid inventory_adjust, nothing changes`, { inventory_adjust: v }, 400, "Invalid inventory_adjust", unchanged(c)),
      ),
      // Rule 3: both must be numbers, even when `inventory` wins.
      patch("a valid inventory beside an invalid inventory_adjust is 400 Invalid inventory_adjust", { inventory: 7, inventory_adjust: "5kg" }, 400, "Invalid inventory_adjust", unchanged(c)),
      patch("an invalid inventory beside a valid inventory_adjust is 400 Invalid inventory", { inventory: "7kg", inventory_adjust: 5 }, 400, "Invalid inventory", unchanged(c)),
      patch("both invalid: inventory is named first", { inventory: "x", inventory_adjust: "y" }, 400, "Invalid inventory", unchanged(c)),
      patch("{} is 200 Nothing to update and changes nothing", {}, 200, "Nothing to update", unchanged(c)),
    ];
    runTable(table);
  });

  describe(`${c}: partial update mode (rule 2) writes only the sent fields`, () => {
    runTable([
      patch("name alone changes the name only", { name: "Renamed" }, 200, "Updated", stored(c, { name: "Renamed" })),
      patch(`${field} ${show(good)} is validated and written`, { [field]: good }, 200, "Updated", stored(c, { [field]: good })),
      patch("several fields at once", { name: "Renamed", notes: "Second lot", hidden: true }, 200, "Updated", stored(c, { name: "Renamed", notes: "Second lot", hidden: true })),
      patch("inventory_adjust beside a field is applied as an adjustment", { name: "Renamed", inventory_adjust: 2.5 }, 200, "Updated", stored(c, { name: "Renamed", inventory: stock + 2.5 })),
      patch("a negative inventory_adjust string beside a field subtracts", { name: "Renamed", inventory_adjust: "-1" }, 200, "Updated", stored(c, { name: "Renamed", inventory: stock - 1 })),
      patch("inventory as a numeric string beside a field is stored as a number", { name: "Renamed", inventory: "9.5" }, 200, "Updated", stored(c, { name: "Renamed", inventory: 9.5 })),
      patch("inventory wins over inventory_adjust in partial mode", { name: "Renamed", inventory: 9, inventory_adjust: 100 }, 200, "Updated", stored(c, { name: "Renamed", inventory: 9 })),
      patch("inventory null beside a field clears the stock (the schema's number|null)", { name: "Renamed", inventory: null }, 200, "Updated", stored(c, { name: "Renamed", inventory: null })),
      patch("an unknown field is written as sent", { lotNumber: "L-42" }, 200, "Updated", stored(c, { lotNumber: "L-42" })),
      patch(
        "_ fields, createdAt and updatedAt are ignored; the rest is written",
        { _id: "other", _rev: "mine", _timestamp_ms: 1, createdAt: "2001-01-01T00:00:00.000Z", updatedAt: "2001-01-01T00:00:00.000Z", name: "Renamed" },
        200,
        "Updated",
        stored(c, { name: "Renamed" }),
      ),
      patch("only ignored fields is 200 Nothing to update", { _rev: "mine", createdAt: "2001-01-01T00:00:00.000Z" }, 200, "Nothing to update", unchanged(c)),
      patch(`${field} ${show(bad)} is 400 with the array of issues, nothing changes`, { [field]: bad }, 400, [issue], unchanged(c)),
      patch("a failed validation takes the adjustment beside it back too", { [field]: bad, inventory_adjust: 5 }, 400, [issue], unchanged(c)),
      patch("a valid field beside an invalid one is not written", { name: "Renamed", [field]: bad }, 400, [issue], unchanged(c)),
      patch("an empty name is 400 with the array of issues", { name: "" }, 400, [{ path: "name", rule: "minLength", message: "name must not be empty" }], unchanged(c)),
      patch("inventory 12abc beside a field is a schema issue in partial mode", { name: "Renamed", inventory: "12abc" }, 400, [TYPE_ISSUE], unchanged(c)),
      // Rule 2 names "any other field": an ignored `_` field still selects partial mode.
      patch("inventory 12abc beside only an ignored _rev is a schema issue (partial mode)", { _rev: "mine", inventory: "12abc" }, 400, [TYPE_ISSUE], unchanged(c)),
      patch("inventory true beside a field is a schema issue in partial mode", { name: "Renamed", inventory: true }, 400, [TYPE_ISSUE], unchanged(c)),
      patch("inventory_adjust 12abc beside a field is 400 Invalid inventory_adjust (either mode)", { name: "Renamed", inventory_adjust: "12abc" }, 400, "Invalid inventory_adjust", unchanged(c)),
      patch("inventory_adjust {} beside a field is 400 Invalid inventory_adjust", { name: "Renamed", inventory_adjust: {} }, 400, "Invalid inventory_adjust", unchanged(c)),
    ]);
  });
}
