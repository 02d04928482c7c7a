import { expect, test } from "bun:test";
import { ImportError, parseImport, toImportDocument } from "../../src/import.ts";
import { openTestStore, STORE_KINDS } from "../helpers/stores.ts";

// export writes devices (with their unattached readings) and the logging id's digest into the import
// document; import reads them back, and refuses malformed ones naming the element, writing nothing.
const DEVICE = {
  type: "iSpindel", name: "Red", batchId: null, lastLog: 1_700_000_000_000, lastData: { time: 1_700_000_000_000, sg: 1.05 },
  settings: { gravityOffset: -0.001, tempOffset: 0 }, firstSeen: 1_699_000_000_000, readings: [{ time: 1_700_000_000_000, sg: 1.05 }],
};
const LOGGING_ID = { digest: "0123456789abcdef".repeat(4), createdAt: 1_699_000_000_000 };

for (const kind of STORE_KINDS) {
  test(`${kind}: an exported document with devices and a logging id imports into a fresh database and exports the same`, async () => {
    const a = await openTestStore(kind);
    const b = await openTestStore(kind);
    try {
      await a.store.createUser("ann", null);
      const set = parseImport({ batches: [{ _id: "b1", name: "Ale", readings: [{ time: 5, sg: 1.01 }] }], devices: [DEVICE, { ...DEVICE, name: "Blue", batchId: "b1", readings: undefined }], loggingId: LOGGING_ID }, undefined);
      await a.store.importAll("ann", set);
      const doc = JSON.parse(JSON.stringify(toImportDocument(await a.store.exportAll("ann"))));
      expect(doc.devices).toEqual([{ ...DEVICE, name: "Blue", batchId: "b1", lastLog: DEVICE.lastLog, readings: undefined }, DEVICE].map((d) => JSON.parse(JSON.stringify(d))));
      expect(doc.loggingId).toEqual(LOGGING_ID);
      await b.store.createUser("ann", null);
      await b.store.importAll("ann", parseImport(doc, undefined));
      expect(JSON.parse(JSON.stringify(toImportDocument(await b.store.exportAll("ann"))))).toEqual(doc);
      expect(await b.store.userByLoggingId(LOGGING_ID.digest)).toBe("ann");
    } finally {
      await a.close();
      await b.close();
    }
  });
}

test("malformed devices and logging ids are refused, naming the element", () => {
  const refused = (doc: unknown) => {
    try {
      parseImport(doc, undefined);
    } catch (e) {
      if (e instanceof ImportError) return e.message;
      throw e;
    }
    return "accepted";
  };
  expect(refused({ devices: {} })).toBe("devices must be an array");
  expect(refused({ devices: [1] })).toBe("devices[0]: must be a JSON object");
  expect(refused({ devices: [{ ...DEVICE, name: "" }] })).toBe("devices[0]: name must be 1 to 64 printable characters without /");
  // What no post or API call could make: an unknown type, a name with a slash or past 64 characters.
  expect(refused({ devices: [{ ...DEVICE, type: "bogus" }] })).toBe("devices[0]: type must be one of iSpindel, tilt, stream");
  expect(refused({ devices: [{ ...DEVICE, name: "a/b" }] })).toBe("devices[0]: name must be 1 to 64 printable characters without /");
  expect(refused({ devices: [{ ...DEVICE, name: "n".repeat(65) }] })).toBe("devices[0]: name must be 1 to 64 printable characters without /");
  expect(refused({ devices: [{ ...DEVICE, settings: { gravityOffset: "1", tempOffset: 0 } }] })).toBe("devices[0]: settings must be {gravityOffset, tempOffset} with numbers");
  expect(refused({ devices: [{ ...DEVICE, readings: [{ sg: 1 }] }] })).toBe("devices[0]: readings[0] must be an object with a numeric time (Unix ms)");
  expect(refused({ devices: [DEVICE, DEVICE] })).toBe("devices[1]: duplicate device iSpindel Red");
  expect(refused({ loggingId: { digest: "secret", createdAt: 1 } })).toBe("loggingId must be {digest: 64 hexadecimal characters, createdAt: Unix ms}");
  expect(refused({ loggingId: { digest: "a".repeat(64), createdAt: 1, secretTag: "tag" } })).toBe("loggingId.secretTag must be 16 hexadecimal characters");
  expect(refused({ devices: [DEVICE], loggingId: LOGGING_ID })).toBe("accepted");
  expect(refused({ gadgets: [] })).toBe("unknown section(s): gadgets (expected batches, recipes, fermentables, hops, miscs, yeasts, devices, loggingId)");
});
