// What a device post does (docs/decisions.md, Devices): the interval rule, the Reading Object it
// appends, the batch item it updates, and attach/detach of items.
import { describe, expect, test } from "bun:test";
import { attachEdits, detachEdit } from "../../src/devices/attach.ts";
import { findItem, placeItem, removeItem, settingsOf } from "../../src/devices/items.ts";
import { parsePost } from "../../src/devices/parse.ts";
import { decidePost, readingOf, waitSeconds } from "../../src/devices/rules.ts";
import type { DeviceRecord } from "../../src/store/types.ts";
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
    type: "iSpindel", name: "Ispindel000", batchId: ATTACHED_BATCH_ID, lastLog: T, lastData: null,
    settings: { gravityOffset: 0, tempOffset: 0 }, firstSeen: T - 1,
  };

  test("inside the interval nothing is written and the wait is told", () => {
    expect(decidePost(spindle(10), { device: known, batch: attachedBatch() }, T + 60_000, 900)).toEqual({ result: { stored: false, retryAfterSeconds: 840 } });
  });

  test("a first post of an unattached device keeps the reading with the device, with no batch to write", () => {
    const outcome = decidePost(parsePost("stream", { name: "Fermenter 1", temp: 18, bpm: 4 }), { device: undefined, batch: undefined }, T, 900);
    expect(outcome).toEqual({
      result: { stored: true },
      reading: { time: T, sg: null, temp: 18, comment: null, type: "stream", pressure: null, ph: null, battery: null, rssi: null, angle: null, id: "FERMENTER 1" },
      device: { lastLog: T, lastData: { time: T, temp: 18, type: "stream", id: "FERMENTER 1", bpm: 4, status: "success" } },
    });
  });

  test("an unattached device's own offsets apply (0 is none)", () => {
    const device = { ...known, batchId: null, lastLog: null, settings: { gravityOffset: 2, tempOffset: 0 } };
    const outcome = decidePost(spindle(0), { device, batch: undefined }, T, 900);
    expect([outcome.reading?.sg, outcome.reading?.temp]).toEqual([1.002, 20]);
  });

  test("an attached post updates the batch item's lastData and lastLog with the item's own offsets, nothing else", () => {
    const at = T + 900_000;
    const outcome = decidePost(spindle(0), { device: known, batch: attachedBatch() }, at, 900);
    const lastData = { time: at, sg: 0.994, temp: 20, type: "iSpindel", battery: 3.8, rssi: -67, angle: 46.5, id: "ISPINDEL000", status: "success" };
    expect(outcome.result).toEqual({ stored: true });
    expect(outcome.reading).toEqual({ time: at, sg: 0.994, temp: 20, comment: null, type: "iSpindel", pressure: null, ph: null, battery: 3.8, rssi: -67, angle: 46.5, id: "ISPINDEL000" });
    expect(outcome.device).toEqual({ lastLog: at, lastData });
    const expected = attachedBatch();
    Object.assign(findItem(expected, "iSpindel", "ISPINDEL000")!, { lastLog: at, lastData });
    expect(outcome.batch).toEqual(expected);
  });

  test("an attached batch whose document lacks the item gets one made", () => {
    const batch = removeItem(attachedBatch(), "iSpindel", "ISPINDEL000")!;
    const outcome = decidePost(spindle(0), { device: known, batch }, T + 900_000, 900);
    expect(findItem(outcome.batch!, "iSpindel", "ISPINDEL000")).toMatchObject({ name: "Ispindel000", key: "ISPINDEL000", batchId: ATTACHED_BATCH_ID, lastLog: T + 900_000 });
  });
});

describe("attach and detach edits", () => {
  const device: DeviceRecord = { type: "tilt", name: "RED", batchId: null, lastLog: T, lastData: { sg: 1.01 }, settings: { gravityOffset: 0, tempOffset: 1 }, firstSeen: T };

  test("joining a batch places the item with the device's offsets and the ones given over them", () => {
    const edits = attachEdits({ ...device, type: "tilt" }, { gravityOffset: -2 });
    const joined = edits.editBatch({ _id: "b1" }, true);
    expect(findItem(joined, "tilt", "RED")).toEqual({ name: "RED", key: "RED", type: "tilt", batchId: "b1", enabled: true, hidden: false, series: ["gravity", "temp"], lastLog: T, lastData: { sg: 1.01 }, settings: { gravityOffset: -2, tempOffset: 1 } });
    expect(edits.item()).toEqual(findItem(joined, "tilt", "RED"));
  });

  test("joining a batch that holds the item keeps its offsets unless given", () => {
    const edits = attachEdits({ type: "iSpindel", name: "Ispindel000", batchId: null, lastLog: null, lastData: null, settings: { gravityOffset: 0, tempOffset: 0 }, firstSeen: T }, { tempOffset: 0.5 });
    edits.editBatch(attachedBatch(), true);
    expect(settingsOf(edits.item())).toEqual({ gravityOffset: -6, tempOffset: 0.5 });
  });

  test("leaving a batch removes the item; a batch without it is left as it is", () => {
    const edits = attachEdits({ type: "iSpindel", name: "Ispindel000", batchId: ATTACHED_BATCH_ID, lastLog: null, lastData: null, settings: { gravityOffset: 0, tempOffset: 0 }, firstSeen: T }, {});
    expect(findItem(edits.editBatch(attachedBatch(), false), "iSpindel", "ISPINDEL000")).toBeUndefined();
    expect(detachEdit("tilt", "RED")({ _id: "x" })).toEqual({ _id: "x" });
  });
});

describe("batch items", () => {
  const device = { type: "tilt" as const, key: "RED", name: "Red", lastLog: null, lastData: null, settings: { gravityOffset: 2, tempOffset: null } };

  test("an item is found by its key, or by its name in any letter case", () => {
    expect(findItem(attachedBatch(), "iSpindel", "ISPINDEL000")?.name).toBe("Ispindel000");
    const byName = { _id: "b", devices: { stream: { items: [{ name: "Fridge" }] } } };
    expect(findItem(byName, "stream", "FRIDGE")).toEqual({ name: "Fridge" });
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
