// The device endpoints are in the OpenAPI document as additions beyond the hosted API (README).
import { expect, test } from "bun:test";
import { DOCUMENTATION } from "../../src/openapi/document.ts";

const doc = DOCUMENTATION("test") as { paths: Record<string, Record<string, Record<string, unknown>>>; tags: Array<Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

const ADDITIONS: Record<string, string[]> = {
  "/stream": ["post"],
  "/ispindel": ["post"],
  "/tilt": ["post"],
  "/v2/devices": ["get"],
  "/v2/devices/{type}/{name}/readings": ["get"],
  "/v2/batches/{id}/devices/{type}/{name}": ["delete", "get", "put"],
};

test("every device endpoint is described, tagged as an addition and marked x-brewrecords-addition", () => {
  for (const [path, methods] of Object.entries(ADDITIONS)) {
    expect(Object.keys(doc.paths[path] ?? {}).sort()).toEqual(methods);
    for (const method of methods) {
      expect(doc.paths[path]![method]!["x-brewrecords-addition"]).toBe(true);
      expect(doc.paths[path]![method]!.tags).toEqual(["Devices (beyond the hosted API)"]);
    }
  }
  expect(doc.tags.find((t) => t.name === "Devices (beyond the hosted API)")?.["x-brewrecords-addition"]).toBe(true);
});

test("the logging endpoints need no API key; the batch's devices need batches.read or batches.write", () => {
  expect(doc.paths["/stream"]!.post!.security).toEqual([]);
  expect(doc.paths["/v2/devices"]!.get!["x-scopes"]).toEqual(["batches.read"]);
  expect(doc.paths["/v2/batches/{id}/devices/{type}/{name}"]!.put!["x-scopes"]).toEqual(["batches.write"]);
  expect(doc.paths["/v2/batches/{id}/devices/{type}/{name}"]!.delete!["x-scopes"]).toEqual(["batches.write"]);
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["Device", "DeviceItem", "DeviceSettings"]));
});
