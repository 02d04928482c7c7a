import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Doc } from "../../src/lib/json.ts";
import { namedDevices } from "../../src/store/devices.ts";
import { PostgresStore } from "../../src/store/postgres.ts";
import type { DevicePostOutcome, DevicePostState, Store } from "../../src/store/types.ts";
import { freshPostgres, openTestStore, STORE_KINDS, type OpenedStore, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

// Devices, logging ids and the device-post transaction (docs/decisions.md, "Devices"), the same
// assertions on SQLite and PostgreSQL. `decide` here is a small stand-in for the rules in
// src/devices/: it stores a post unless the last stored one is younger than the interval.
const ISPINDEL = { type: "iSpindel", name: "Red" };
const TILT = { type: "tilt", name: "BLUE" };

/** A batch's device item as real batches carry one (the fields the tests look at). */
const item = (name: string, type = "iSpindel") => ({ name, key: name.toUpperCase(), type, enabled: true, lastData: null, lastLog: null });

function post(at: number, sg: number, interval = 900_000) {
  return ({ device, batch }: DevicePostState): DevicePostOutcome<string> => {
    if (interval > 0 && device?.lastLog != null && at - device.lastLog < interval) return { result: "skipped" };
    const lastData = { time: at, sg, type: "iSpindel" };
    const next: DevicePostOutcome<string> = { device: { lastLog: at, lastData }, reading: { time: at, sg, type: "iSpindel", id: "Red" }, result: batch ? "batch" : "device" };
    if (batch) next.batch = { ...batch, devices: { iSpindel: { enabled: true, items: [{ ...item("Red"), lastData, lastLog: at }] } } };
    return next;
  };
}

describe("namedDevices", () => {
  test("names each item of devices.<type>.items by name, else key, typed by the item or its member", () => {
    const doc = {
      devices: {
        iSpindel: { enabled: true, items: [{ name: "Ispindel000", key: "ISPINDEL000", type: "iSpindel" }, { key: "ONLYKEY" }, { name: "" }, "junk", null] },
        tilt: { items: [{ name: "RED" }] },
        stream: { items: "not an array" },
        gfcc: { enabled: false, items: [], brewDeviceId: null },
      },
    };
    expect(namedDevices(doc)).toEqual([
      { type: "iSpindel", name: "Ispindel000" },
      { type: "iSpindel", name: "ONLYKEY" },
      { type: "tilt", name: "RED" },
    ]);
    expect(namedDevices({})).toEqual([]);
    expect(namedDevices({ devices: [1] })).toEqual([]);
  });
});

for (const kind of STORE_KINDS) {
  describe(`${kind} store: devices`, () => {
    let opened: OpenedStore;
    let store: Store;
    beforeAll(async () => {
      opened = await openTestStore(kind);
      store = opened.store;
      await store.createUser("ann", null);
      await store.createUser("bob", null);
    });
    afterAll(() => opened.close(), DROP_TIMEOUT_MS);

    test("a logging id digest is one per account, replaced at once, and finds its account", async () => {
      const d1 = "a".repeat(64);
      const d2 = "b".repeat(64);
      expect(await store.getLoggingId("ann")).toBeUndefined();
      expect(await store.setLoggingId({ userId: "ann", digest: d1, createdAt: 5 })).toBe(true);
      expect(await store.userByLoggingId(d1)).toBe("ann");
      expect(await store.setLoggingId({ userId: "ann", digest: d2, createdAt: 6 })).toBe(true);
      expect(await store.userByLoggingId(d1)).toBeUndefined();
      expect(await store.userByLoggingId(d2)).toBe("ann");
      expect(await store.getLoggingId("ann")).toEqual({ userId: "ann", digest: d2, createdAt: 6 });
      expect(await store.setLoggingId({ userId: "nobody", digest: "c".repeat(64), createdAt: 1 })).toBe(false);
      expect(await store.userByLoggingId("c".repeat(64))).toBeUndefined();
    });

    test("a first post creates the device unattached and keeps its reading against it", async () => {
      expect(await store.devicePost("ann", ISPINDEL, post(1_000_000, 1.05))).toBe("device");
      const device = await store.device("ann", ISPINDEL);
      expect(device).toEqual({
        type: "iSpindel", name: "Red", batchId: null, lastLog: 1_000_000, lastData: { time: 1_000_000, sg: 1.05, type: "iSpindel" },
        settings: { gravityOffset: 0, tempOffset: 0 }, firstSeen: device!.firstSeen,
      });
      expect(Math.abs(device!.firstSeen - Date.now())).toBeLessThan(60_000);
      expect(await store.deviceReadings("ann", ISPINDEL)).toBe('[{"id":"Red","sg":1.05,"time":1000000,"type":"iSpindel"}]');
      // Inside the interval: answered, nothing written.
      expect(await store.devicePost("ann", ISPINDEL, post(1_000_001, 1.04))).toBe("skipped");
      expect((await store.device("ann", ISPINDEL))!.lastLog).toBe(1_000_000);
      expect(await store.deviceReadings("ann", ISPINDEL, { since: 1_000_001 })).toBe("[]");
      expect(await store.device("bob", ISPINDEL)).toBeUndefined();
      expect(await store.deviceReadings("bob", ISPINDEL)).toBeUndefined();
    });

    test("a decide that throws writes nothing; one that stores nothing creates no device", async () => {
      const refuse = () => {
        throw new Error("refused");
      };
      await expect(store.devicePost("ann", ISPINDEL, refuse)).rejects.toThrow("refused");
      await expect(store.devicePost("ann", TILT, refuse)).rejects.toThrow("refused");
      expect(await store.device("ann", TILT)).toBeUndefined();
      expect(await store.devicePost("ann", TILT, () => ({ result: 1 }))).toBe(1);
      expect(await store.device("ann", TILT)).toBeUndefined();
      expect((await store.device("ann", ISPINDEL))!.lastLog).toBe(1_000_000);
    });

    test("attached, a post appends to the batch and rewrites its document in the same transaction", async () => {
      await store.insert("ann", "batch", { _id: "b1", name: "Ale", status: "Fermenting" });
      expect(await store.attachDevice("ann", ISPINDEL, "nope")).toBe(false);
      const edits: Array<[string, boolean]> = [];
      const edit = (batch: Doc, attached: boolean) => {
        edits.push([String(batch._id), attached]);
        return { ...batch, devices: { iSpindel: { enabled: true, items: attached ? [item("Red")] : [] } } };
      };
      expect(await store.attachDevice("ann", ISPINDEL, "b1", edit)).toBe(true);
      expect(edits).toEqual([["b1", true]]);
      expect((await store.device("ann", ISPINDEL))!.batchId).toBe("b1");
      expect(await store.devicePost("ann", ISPINDEL, post(2_000_000, 1.03))).toBe("batch");
      expect(await store.readings("ann", "b1")).toBe('[{"id":"Red","sg":1.03,"time":2000000,"type":"iSpindel"}]');
      expect(await store.lastReading("ann", "b1")).toBe('{"id":"Red","sg":1.03,"time":2000000,"type":"iSpindel"}');
      const doc = JSON.parse((await store.get("ann", "batch", "b1"))!);
      expect(doc.devices.iSpindel.items[0].lastLog).toBe(2_000_000);
      expect(doc.name).toBe("Ale");
      // Earlier unattached readings stay with the device.
      expect(JSON.parse((await store.deviceReadings("ann", ISPINDEL))!)).toHaveLength(1);
      // A throw after the batch was read leaves batch, readings and device as they were.
      await expect(store.devicePost("ann", ISPINDEL, () => { throw new Error("late"); })).rejects.toThrow("late");
      expect(JSON.parse((await store.readings("ann", "b1"))!)).toHaveLength(1);
    });

    test("moving a device edits the batch it leaves and the one it joins; detaching sends posts to the device", async () => {
      await store.insert("ann", "batch", { _id: "b2", name: "Stout" });
      const edits: Array<[string, boolean]> = [];
      const edit = (batch: Doc, attached: boolean) => {
        edits.push([String(batch._id), attached]);
        return { ...batch, devices: { iSpindel: { enabled: true, items: attached ? [item("Red")] : [] } } };
      };
      expect(await store.attachDevice("ann", ISPINDEL, "b2", edit)).toBe(true);
      expect(edits).toEqual([["b1", false], ["b2", true]]);
      expect(JSON.parse((await store.get("ann", "batch", "b1"))!).devices.iSpindel.items).toEqual([]);
      expect(await store.attachDevice("ann", ISPINDEL, null, edit)).toBe(true);
      expect(edits.slice(2)).toEqual([["b2", false]]);
      expect(await store.devicePost("ann", ISPINDEL, post(3_000_000, 1.02))).toBe("device");
      expect(JSON.parse((await store.deviceReadings("ann", ISPINDEL))!).map((r: Doc) => r.time)).toEqual([1_000_000, 3_000_000]);
      expect(await store.readings("ann", "b2")).toBeUndefined();
    });

    test("settings are kept per device; false for a device never seen", async () => {
      expect(await store.setDeviceSettings("ann", ISPINDEL, { gravityOffset: -0.002, tempOffset: 0.5 })).toBe(true);
      expect((await store.device("ann", ISPINDEL))!.settings).toEqual({ gravityOffset: -0.002, tempOffset: 0.5 });
      expect(await store.setDeviceSettings("ann", { type: "stream", name: "never" }, { gravityOffset: 0, tempOffset: 0 })).toBe(false);
    });

    test("a batch imported naming a device attaches it; re-imported without, or removed, it is detached", async () => {
      await store.importAll("ann", {
        batches: [{ doc: { _id: "b3", devices: { tilt: { enabled: true, items: [item("BLUE", "tilt")] }, iSpindel: { items: [item("Red")] } } } }],
        docs: [],
      });
      expect((await store.device("ann", TILT))!.batchId).toBe("b3");
      expect((await store.device("ann", TILT))!.lastLog).toBeNull();
      expect((await store.device("ann", ISPINDEL))!.batchId).toBe("b3");
      expect((await store.device("ann", ISPINDEL))!.settings).toEqual({ gravityOffset: -0.002, tempOffset: 0.5 });
      await store.importAll("ann", { batches: [{ doc: { _id: "b3", devices: { tilt: { items: [item("BLUE", "tilt")] } } } }], docs: [] });
      expect((await store.device("ann", ISPINDEL))!.batchId).toBeNull();
      expect((await store.device("ann", TILT))!.batchId).toBe("b3");
      expect(await store.remove("ann", "batch", "b3")).toBe(true);
      expect((await store.device("ann", TILT))!.batchId).toBeNull();
      expect((await store.devices("ann")).map((d) => `${d.type}/${d.name}:${d.batchId}`)).toEqual(["iSpindel/Red:null", "tilt/BLUE:null"]);
    });

    test("export and import keep devices, their unattached readings and the logging id digest", async () => {
      await store.attachDevice("ann", TILT, "b1");
      const set = await store.exportAll("ann");
      expect(set.loggingId).toEqual({ digest: "b".repeat(64), createdAt: 6 });
      expect(set.devices!.map((d) => [d.type, d.name, d.batchId, d.readings?.length ?? 0])).toEqual([["iSpindel", "Red", null, 2], ["tilt", "BLUE", "b1", 0]]);
      await store.createUser("copy", null);
      await store.importAll("copy", set);
      // The digest is ann's credential: a second account on the same database does not take it over.
      const { loggingId: _held, ...rest } = set;
      expect(await store.exportAll("copy")).toEqual(rest);
      expect(await store.userByLoggingId("b".repeat(64))).toBe("ann");
      expect(await store.deviceReadings("copy", ISPINDEL)).toBe(await store.deviceReadings("ann", ISPINDEL));
      // Into an account whose database holds no such digest, it comes along.
      const other = await openTestStore(kind);
      try {
        await other.store.createUser("ann", null);
        await other.store.importAll("ann", set);
        expect(await other.store.exportAll("ann")).toEqual(set);
        expect(await other.store.userByLoggingId("b".repeat(64))).toBe("ann");
      } finally {
        await other.close();
      }
    });

    test("concurrent posts of one device inside the interval store exactly one", async () => {
      await store.insert("bob", "batch", { _id: "r1" });
      expect(await store.attachDevice("bob", ISPINDEL, "r1")).toBe(true);
      const results = await Promise.all(Array.from({ length: 24 }, (_, i) => store.devicePost("bob", ISPINDEL, post(5_000_000 + i, 1 + i / 1000))));
      expect(results.filter((r) => r === "batch")).toHaveLength(1);
      expect(JSON.parse((await store.readings("bob", "r1"))!)).toHaveLength(1);
    });
  });
}

describe.skipIf(!STORE_KINDS.includes("postgres"))("postgres: two store instances on one database", () => {
  test("posts of one device racing through two instances store exactly one", async () => {
    const db = await freshPostgres();
    const first = PostgresStore.open(db.url);
    const second = PostgresStore.open(db.url);
    try {
      await first.ready;
      await second.ready;
      await first.createUser("ann", null);
      await first.insert("ann", "batch", { _id: "b1" });
      await second.attachDevice("ann", ISPINDEL, "b1");
      const stores = [first, second];
      const results = await Promise.all(Array.from({ length: 32 }, (_, i) => stores[i % 2].devicePost("ann", ISPINDEL, post(9_000_000 + i, 1.01))));
      expect(results.filter((r) => r === "batch")).toHaveLength(1);
      expect(JSON.parse((await second.readings("ann", "b1"))!)).toHaveLength(1);
      // With no interval every post is stored, none lost, through either instance.
      const all = await Promise.all(Array.from({ length: 32 }, (_, i) => stores[i % 2].devicePost("ann", ISPINDEL, post(10_000_000 + i, 1.01, 0))));
      expect(all.filter((r) => r === "batch")).toHaveLength(32);
      expect(JSON.parse((await first.readings("ann", "b1"))!)).toHaveLength(33);
    } finally {
      await second.close();
      await first.close();
      await db.drop();
    }
  });
});
