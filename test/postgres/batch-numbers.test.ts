// Batch numbers stay unique and without gaps when several server processes on one PostgreSQL database
// create batches at once (POST /v2/batches, beyond the hosted API).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, type ServerProcess } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, type Database, DROP_TIMEOUT_MS } from "../helpers/stores.ts";

describe.skipIf(!HAVE_POSTGRES)("batch numbers across two server processes on one PostgreSQL database", () => {
  let db: Database;
  let servers: ServerProcess[] = [];
  let auth = "";

  beforeAll(async () => {
    db = await freshPostgres();
    expect(cli(["user", "add", "ann"], { DATABASE_URL: db.url }).code).toBe(0);
    const key = cli(["key", "generate", "ann", "--scopes", "all"], { DATABASE_URL: db.url });
    auth = basic("ann", key.stdout.trim());
    servers = await Promise.all([0, 1].map(() => startServerProcess({ DATABASE_URL: `${db.url}?max=8`, RATE_LIMIT_V2_PER_HOUR: "100000" })));
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db.drop();
  }, DROP_TIMEOUT_MS);

  test("64 creates at once, spread over both, take batchNo 1 to 64, each once", async () => {
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        fetch(`${servers[i % 2].url}/v2/batches`, {
          method: "POST",
          headers: { authorization: auth, "content-type": "application/json" },
          body: JSON.stringify({ recipe: { name: `Recipe ${i}`, batchSize: 20 } }),
        }).then(async (res) => ({ status: res.status, id: (await res.json()).id as string })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(64).fill(201));
    const numbers: number[] = [];
    for (const { id } of answers) {
      const batch = await (await fetch(`${servers[0].url}/v2/batches/${id}?include=batchNo`, { headers: { authorization: auth } })).json();
      numbers.push(batch.batchNo);
    }
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
  }, 60_000);
});
