// The minimum interval over HTTP to the real server process: a flood of posts and racing posts of one
// device store exactly one post per device (docs/decisions.md, Devices), also across two processes on
// one PostgreSQL database.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, STORE_KINDS, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";
import { deviceAccount } from "./accounts.ts";

const OK = '{"result":"OK"}';

for (const kind of STORE_KINDS) {
  describe(`minimum interval of 900 s (${kind})`, () => {
    const dir = tempDir();
    let db: Database | undefined;
    let env: Record<string, string>;
    const servers: ServerProcess[] = [];
    let auth: string;
    let loggingId: string;

    beforeAll(async () => {
      if (kind === "postgres") db = await freshPostgres();
      env = { DATABASE_URL: db?.url ?? join(dir.path, "records.sqlite"), DEMO: "0" };
      const data = { batches: [{ _id: "b-race", name: "race", status: "Fermenting", devices: { tilt: { enabled: true, items: [{ name: "ORANGE", key: "ORANGE" }] } } }] };
      ({ auth, loggingId } = deviceAccount(env, dir.path, "bob", data));
      servers.push(await startServerProcess(env));
      if (kind === "postgres") servers.push(await startServerProcess(env));
    });

    afterAll(async () => {
      for (const s of servers) await s.stop();
      await db?.drop();
      dir.remove();
    }, DROP_TIMEOUT_MS);

    const post = (base: string, path: string, body: unknown) =>
      fetch(`${base}${path}?id=${loggingId}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, text: await r.text() }));

    async function api(path: string) {
      const res = await fetch(servers[0]!.url + path, { headers: { authorization: auth } });
      return JSON.parse(await res.text());
    }

    test("sixteen racing posts of one attached device store exactly one reading; the others are answered as ignored", async () => {
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => post(servers[i % servers.length]!.url, "/tilt", { Color: "ORANGE", SG: 1.05 + i / 1000, Temp: 68 })),
      );
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      expect(answers.filter((a) => a.text === OK)).toHaveLength(1);
      const ignored = answers.filter((a) => a.text !== OK).map((a) => JSON.parse(a.text));
      expect(ignored).toHaveLength(15);
      for (const body of ignored) {
        expect(body.result).toBe("OK");
        expect(body.stored).toBe(false);
        expect(body.retryAfter >= 899 && body.retryAfter <= 900).toBe(true);
      }
      const readings = await api("/v2/batches/b-race/readings");
      expect(readings).toHaveLength(1);
      const batch = await api("/v2/batches/b-race");
      expect(batch.devices.tilt.items[0].lastData.sg).toBe(readings[0].sg);
    });

    test("a flood from twelve devices, five posts each at once, stores one post per device and nothing half", async () => {
      const posts = Array.from({ length: 60 }, (_, i) => post(servers[i % servers.length]!.url, "/stream", { name: `Flood ${i % 12}`, temp: 20 + (i % 5), gravity: 1.04 }));
      const answers = await Promise.all(posts);
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      expect(answers.filter((a) => a.text === OK)).toHaveLength(12);
      const devices = (await api("/v2/devices")) as Array<{ name: string; lastLog: number; lastData: { temp: number } }>;
      const flood = devices.filter((d) => d.name.startsWith("Flood "));
      expect(flood.map((d) => d.name).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Flood ${i}`).sort());
      for (const d of flood) {
        const kept = (await api(`/v2/devices/stream/${encodeURIComponent(d.name)}/readings`)) as Array<{ time: number; temp: number }>;
        expect(kept).toEqual([expect.objectContaining({ time: d.lastLog, temp: d.lastData.temp })]);
      }
    });

    if (kind === "postgres" && HAVE_POSTGRES) {
      test("the two server processes share one database: a post stored through one is inside the interval on the other", async () => {
        expect((await post(servers[0]!.url, "/stream", { name: "Shared", temp: 10 })).text).toBe(OK);
        const other = JSON.parse((await post(servers[1]!.url, "/stream", { name: "Shared", temp: 11 })).text);
        expect(other).toMatchObject({ result: "OK", stored: false });
      });
    }
  });
}
