// What a device post does (docs/decisions.md, Devices): the interval rule, the Reading Object it
// appends, the batch item it updates, and attach/detach of items.
import { describe, expect, test } from "bun:test";
import { findItem, namedDevices, placeItem, removeItem } from "../../src/devices/items.ts";
import { parsePost } from "../../src/devices/parse.ts";
import { decidePost, readingOf, waitSeconds, type DeviceRecord } from "../../src/devices/rules.ts";
import { ATTACHED_BATCH_ID, attachedBatch } from "./fixtures.ts";

const T = 1_700_000_000_000;

describe("minimum interval", () => {
  test("a device never stored waits 0 seconds", () => expect(waitSeconds(null, T, 900)).toBe(0));
  test("899.5 s after the last stored post waits 1 second", () => expect(waitSeconds(T, T + 899_500, 900)).toBe(1));
  test("exactly 900 s after the last stored post is stored", () => expect(waitSeconds(T, T + 900_000, 900)).toBe(0));
  test("a post 1 ms after the last waits the whole interval", () => expect(waitSeconds(T, T + 1, 900)).toBe(900));
  test("an interval of 0 stores every post, even at the same millisecond", () => expect(waitSeconds(T, T, 0)).toBe(0));
  test("a clock that went back waits until the interval has passed", () => expect(waitSeconds(T, T - 1000, 60)).toBe(61));
});

const spindle = (gravity: number) => parsePost("iSpindel", { name: "Ispindel000", gravity, temperature: 20, battery: 3.8, RSSI: -67, angle: 46.5 });

describe("the Reading Object of a post", () => {
  test("has every documented field, null where not sent, the key as id and integers kept", () => {
    const reading = readingOf(parsePost("tilt", { Color: "green", SG: "1.039", Temp: "41.18" }), { gravityOffset: null, tempOffset: null }, T);
    expect(reading).toEqual({ time: T, sg: 1.039, temp: 5.1, comment: null, type: "tilt", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "GREEN" });
    expect(JSON.stringify(reading)).toContain(`"time":${T},`);
  });
  test("leaves temp out when the post has none (the document types it as a number)", () => {
    expect(readingOf(parsePost("stream", { name: "b", bpm: 2 }), { gravityOffset: null, tempOffset: null }, T)).not.toHaveProperty("temp");
  });
  test("applies the gravity offset in points and the temperature offset in °C", () => {
    const reading = readingOf(spindle(0), { gravityOffset: -6, tempOffset: 0.5 }, T);
    expect([reading.sg, reading.temp]).toEqual([0.994, 20.5]);
  });
  test("a Tilt's Timepoint is the reading's time", () => {
    const post = parsePost("tilt", { Color: "RED", SG: 1.05, Timepoint: 45658.5 });
    expect(readingOf(post, { gravityOffset: null, tempOffset: null }, T).time).toBe(post.time!);
  });
});

describe("decidePost", () => {
  const known: DeviceRecord = {
    type: "iSpindel", key: "ISPINDEL000", name: "Ispindel000", batchId: ATTACHED_BATCH_ID, lastLog: T, lastData: null,
    settings: { gravityOffset: null, tempOffset: null }, firstSeen: T - 1,
  };

  test("inside the interval nothing is stored and the wait is told", () => {
    expect(decidePost(spindle(10), known, attachedBatch(), T + 60_000, 900)).toEqual({ stored: false, retryAfterSeconds: 840 });
  });

  test("a first post of an unattached device keeps the reading with the device", () => {
    const outcome = decidePost(parsePost("stream", { name: "Fermenter 1", temp: 18, bpm: 4 }), undefined, undefined, T, 900);
    expect(outcome).toEqual({
      stored: true,
      reading: { time: T, sg: null, temp: 18, comment: null, type: "stream", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "FERMENTER 1" },
      device: {
        type: "stream", key: "FERMENTER 1", name: "Fermenter 1", batchId: null, lastLog: T, firstSeen: T,
        lastData: { time: T, temp: 18, type: "stream", id: "FERMENTER 1", bpm: 4, status: "success" },
        settings: { gravityOffset: null, tempOffset: null },
      },
    });
  });

  test("an attached post updates the batch item's lastData and lastLog with the item's own offsets, nothing else", () => {
    const at = T + 900_000;
    const outcome = decidePost(spindle(0), known, attachedBatch(), at, 900);
    if (!outcome.stored) throw new Error("not stored");
    const lastData = { time: at, sg: 0.994, temp: 20, type: "iSpindel", battery: 3.8, rssi: -67, angle: 46.5, id: "ISPINDEL000", status: "success" };
    expect(outcome.reading).toEqual({ time: at, sg: 0.994, temp: 20, comment: null, type: "iSpindel", pressure: null, ph: null, battery: 3.8, rssi: -67, angle: 46.5, id: "ISPINDEL000" });
    expect(outcome.device).toEqual({ ...known, lastLog: at, lastData });
    const expected = attachedBatch();
    const item = findItem(expected, "iSpindel", "ISPINDEL000")!;
    Object.assign(item, { lastLog: at, lastData });
    expect(outcome.batch).toEqual(expected);
  });
});

describe("batch items", () => {
  const device = { type: "tilt" as const, key: "RED", name: "Red", lastLog: null, lastData: null, settings: { gravityOffset: 2, tempOffset: null } };

  test("an item is found by its key, or by its name in any letter case", () => {
    expect(findItem(attachedBatch(), "iSpindel", "ISPINDEL000")?.name).toBe("Ispindel000");
    const byName = { _id: "b", devices: { stream: { items: [{ name: "Fridge" }] } } };
    expect(findItem(byName, "stream", "FRIDGE")).toEqual({ name: "Fridge" });
  });

  test("namedDevices lists every item of the known types by key", () => {
    expect(namedDevices(attachedBatch())).toEqual([{ type: "iSpindel", key: "ISPINDEL000", name: "Ispindel000" }]);
  });

  test("placing an item into a batch without devices makes the type's entry", () => {
    const placed = placeItem({ _id: "b1", name: "x" }, device, {});
    expect(placed.devices).toEqual({
      tilt: {
        enabled: true,
        items: [{ name: "Red", key: "RED", type: "tilt", batchId: "b1", enabled: true, hidden: false, series: ["gravity", "temp"], lastLog: null, lastData: null, settings: { gravityOffset: 2, tempOffset: null } }],
      },
    });
  });

  test("placing an item keeps the other types and the entry's own fields", () => {
    const placed = placeItem(attachedBatch(), device, {});
    const devices = placed.devices as Record<string, { items: unknown[] } & Record<string, unknown>>;
    expect(devices.tilt!.mode).toBe("default");
    expect(devices.tilt!.items).toHaveLength(1);
    expect(devices.iSpindel).toEqual((attachedBatch().devices as typeof devices).iSpindel!);
  });

  test("removing an item leaves the others; removing one not there is undefined", () => {
    const removed = removeItem(attachedBatch(), "iSpindel", "ISPINDEL000")!;
    expect((removed.devices as Record<string, { items: unknown[] }>).iSpindel!.items).toEqual([]);
    expect(removeItem(attachedBatch(), "tilt", "RED")).toBeUndefined();
  });
});
