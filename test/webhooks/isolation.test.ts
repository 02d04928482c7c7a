import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli, startServerProcess, tempDir, type ServerProcess } from "../helpers/process.ts";
import { freshPostgres, HAVE_POSTGRES, DROP_TIMEOUT_MS } from "../helpers/stores.ts";
import { Receiver, until } from "./receiver.ts";

// A receiver that takes a delivery and never answers holds up no one else's: the real server process,
// on each store, keeps delivering other subscriptions' events (here another account's) while that
// attempt waits out its time limit, and retries it afterwards. The silent receiver's later events, of
// other resources, come a round apart: they wait for its attempt under way instead of each taking a
// round of its own until none is left for anyone else.

const TIMEOUT_MS = 10_000;
const receiver = new Receiver().start();
const dir = tempDir();

afterAll(async () => {
  await receiver.stop();
  dir.remove();
});

async function accounts(env: Record<string, string>): Promise<Record<"alice" | "bob", Record<string, string>>> {
  const headers = (user: string) => {
    expect(cli(["user", "add", user], env).code).toBe(0);
    const key = cli(["key", "generate", user, "--scopes", "all"], env).stdout.trim();
    return { authorization: basic(user, key), "content-type": "application/json" };
  };
  return { alice: headers("alice"), bob: headers("bob") };
}

function run(store: "sqlite" | "postgres") {
  test(`${store}: another account's event is delivered while one receiver has not answered`, async () => {
    const db = store === "postgres" ? await freshPostgres() : undefined;
    const env = { DATABASE_URL: db?.url ?? join(dir.path, "isolation.sqlite"), WEBHOOK_ALLOW_HOSTS: "127.0.0.1", WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) };
    const who = await accounts(env);
    let server: ServerProcess | undefined;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    try {
      server = await startServerProcess(env);
      const send = (as: Record<string, string>, method: string, path: string, body?: unknown) =>
        fetch(server!.url + path, { method, headers: as, body: body === undefined ? undefined : JSON.stringify(body) });
      const hang = `/${store}/hang`;
      const prompt = `/${store}/prompt`;
      expect((await send(who.alice, "POST", "/v2/webhooks", { url: receiver.url(hang), events: ["recipe.created"] })).status).toBe(201);
      expect((await send(who.bob, "POST", "/v2/webhooks", { url: receiver.url(prompt), events: ["recipe.created"] })).status).toBe(201);
      // The hanging receiver takes its request and answers only once the test is over (or the sender gives up).
      receiver.answer = (_req, r) => (r.path === hang ? released.then(() => new Response(null, { status: 204 })) : new Response(null, { status: 204 }));

      expect((await send(who.alice, "POST", "/v2/recipes", { name: "Held" })).status).toBe(201);
      await until("the hanging receiver's request", () => receiver.at(hang).length === 1);
      // Three more of hers, each after the round before has been left to go on alone (a second).
      for (let i = 1; i <= 3; i++) {
        await Bun.sleep(1200);
        expect((await send(who.alice, "POST", "/v2/recipes", { name: `Held ${i}` })).status).toBe(201);
      }
      const sentAt = Date.now();
      expect((await send(who.bob, "POST", "/v2/recipes", { name: "Prompt" })).status).toBe(201);
      await until("the other account's delivery", () => receiver.at(prompt).length === 1, TIMEOUT_MS);
      // Within a round's run limit and a look at the outbox, far inside the hanging attempt's time limit.
      expect(Date.now() - sentAt).toBeLessThan(3000);
      expect(receiver.at(prompt)[0]!.json.data.document.name).toBe("Prompt");
      expect(receiver.at(hang)).toHaveLength(1);

      // The unanswered attempt ends at its limit; then it is tried again, with the same id, and her
      // other events are sent (each of its own resource, so none waits for another).
      await until("the retry and her other events", () => receiver.at(hang).length === 5, TIMEOUT_MS + 15_000);
      const [first, ...rest] = receiver.at(hang);
      expect(rest.map((r) => r.id)).toContain(first!.id);
      expect(rest.map((r) => r.json.data.document.name).sort()).toEqual(["Held", "Held 1", "Held 2", "Held 3"]);
      const listed = await (await send(who.alice, "GET", "/v2/webhooks")).json();
      expect(listed[0].lastDeliveries.at(-1)).toMatchObject({ eventId: first!.id, status: null, detail: `no answer within ${TIMEOUT_MS} ms` });
    } finally {
      release();
      receiver.answer = () => new Response(null, { status: 204 });
      await server?.stop();
      await db?.drop();
    }
  }, 60_000 + DROP_TIMEOUT_MS);
}

describe("webhooks: a receiver that does not answer", () => {
  run("sqlite");
  if (HAVE_POSTGRES) run("postgres");
});
