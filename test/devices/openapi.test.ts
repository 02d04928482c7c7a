// The device endpoints are in the OpenAPI document as additions beyond the hosted API (README).
import { expect, test } from "bun:test";
import { testApp } from "../helpers/app.ts";

type Op = Record<string, unknown> & { tags: string[]; security: unknown[] };
const doc = JSON.parse((await (await testApp()).call("GET", "/swagger/json", null)).text) as { paths: Record<string, Record<string, Op>>; tags: Array<Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

const ADDITIONS: Record<string, string[]> = {
  "/stream": ["post"],
  "/ispindel": ["post"],
  "/tilt": ["post"],
  "/v2/devices": ["get"],
  "/v2/devices/{type}/{name}/readings": ["get"],
  "/v2/batches/{id}/devices/{type}/{name}": ["delete", "get", "put"],
};

test("every device endpoint is described under the Devices tag and marked as an addition", () => {
  for (const [path, methods] of Object.entries(ADDITIONS)) {
    expect(Object.keys(doc.paths[path] ?? {}).sort()).toEqual(methods);
    for (const method of methods) {
      expect(doc.paths[path]![method]!["x-brewrecords-addition"]).toBe(true);
      expect(doc.paths[path]![method]!.tags).toEqual(["Devices", "Beyond the hosted API"]);
    }
  }
  expect(doc.tags.map((t) => t.name)).toEqual(expect.arrayContaining(["Devices", "Beyond the hosted API"]));
});

test("the logging endpoints take no API key but the id parameter; a batch's devices need batches.read or batches.write", () => {
  for (const path of ["/stream", "/ispindel", "/tilt"]) {
    expect(doc.paths[path]!.post!.security).toEqual([]);
    expect(doc.paths[path]!.post!.parameters).toEqual([expect.objectContaining({ name: "id", in: "query", required: true })]);
  }
  expect(doc.paths["/v2/devices"]!.get!["x-scopes"]).toEqual(["batches.read"]);
  expect(doc.paths["/v2/batches/{id}/devices/{type}/{name}"]!.put!["x-scopes"]).toEqual(["batches.write"]);
  expect(doc.paths["/v2/batches/{id}/devices/{type}/{name}"]!.delete!["x-scopes"]).toEqual(["batches.write"]);
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["Device", "DeviceItem", "DeviceSettings"]));
});
