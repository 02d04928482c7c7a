// LOGGING_PORT beside an HTTPS main listener (README, Devices): devices post over plain HTTP to the
// logging listener while the API stays HTTPS only; both are one process on one store.
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { selfSignedCertificate, startServerProcess, tempDir } from "../helpers/process.ts";
import { deviceAccount } from "./accounts.ts";

const dir = tempDir();
afterAll(() => dir.remove());

test("with TLS on the API, the logging listener takes plain-HTTP posts and the API shows them over HTTPS", async () => {
  const { cert, key } = selfSignedCertificate(dir.path);
  const env = { DATABASE_URL: join(dir.path, "tls.sqlite"), DEMO: "0", TLS_CERT_FILE: cert, TLS_KEY_FILE: key, LOGGING_PORT: "0" };
  const { auth, loggingId } = deviceAccount(env, dir.path, "carol", { batches: [{ _id: "b-tls", name: "tls", devices: { stream: { items: [{ name: "Cellar" }] } } }] });
  const server = await startServerProcess(env);
  try {
    // The logging listener's line follows the main one: wait for it rather than read too early.
    let logging: string | undefined;
    for (let i = 0; i < 500 && !logging; i++) {
      logging = /device logging endpoints listening on (http:\/\/\S+)/.exec(server.output())?.[1];
      if (!logging) await Bun.sleep(10);
    }
    expect(server.url.startsWith("https://")).toBe(true);
    expect(logging?.startsWith("http://127.0.0.1:")).toBe(true);
    const posted = await fetch(`${logging}/stream?id=${loggingId}`, { method: "POST", body: JSON.stringify({ name: "Cellar", temp: 12.5 }) });
    expect([posted.status, await posted.text()]).toEqual([200, '{"result":"OK"}']);
    const res = await fetch(`${server.url}/v2/batches/b-tls/readings/last`, { headers: { authorization: auth }, tls: { ca: readFileSync(cert, "utf8") } });
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toMatchObject({ temp: 12.5, type: "stream", id: "CELLAR" });
  } finally {
    await server.stop();
  }
});
