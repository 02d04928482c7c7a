import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { basic } from "../helpers/app.ts";
import { cli, selfSignedCertificate, startServerProcess, tempDir } from "../helpers/process.ts";

// HTTPS served by Bun itself, the refusal to serve plain HTTP where it is unsafe, the trusted-proxy
// mode, health, request logs and graceful shutdown, on the real server process.
const dir = tempDir();
afterAll(() => dir.remove());

function account(env: Record<string, string>, userId = "alice") {
  expect(cli(["user", "add", userId], env).code).toBe(0);
  return cli(["key", "generate", userId, "--scopes", "all"], env).stdout.trim();
}

describe("HTTPS", () => {
  test("with a certificate the server speaks HTTPS, sends HSTS, and a client trusting the certificate calls it", async () => {
    const { cert, key } = selfSignedCertificate(dir.path);
    const env = { DATABASE_URL: join(dir.path, "tls.sqlite"), TLS_CERT_FILE: cert, TLS_KEY_FILE: key };
    const apiKey = account(env);
    const server = await startServerProcess(env);
    try {
      expect(server.url.startsWith("https://127.0.0.1:")).toBe(true);
      const res = await fetch(`${server.url}/v2/batches`, { headers: { authorization: basic("alice", apiKey) }, tls: { ca: readFileSync(cert, "utf8") } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("[]");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
      // A client that does not trust the certificate is refused by TLS itself.
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      await server.stop();
    }
  });

  test("plain HTTP on a non-loopback address without TLS or TRUST_PROXY is refused at start, saying what to set", () => {
    const res = cli(["serve"], { DATABASE_URL: join(dir.path, "refused.sqlite"), HOST: "0.0.0.0", PORT: "0", DEMO: "0" });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("refusing to serve plain HTTP on 0.0.0.0");
    expect(res.stderr).toContain("TLS_CERT_FILE and TLS_KEY_FILE");
    expect(res.stderr).toContain("TRUST_PROXY=1");
  });

  test("behind a trusted proxy, a request not forwarded as HTTPS gets 403 naming HTTPS; health stays open", async () => {
    const env = { DATABASE_URL: join(dir.path, "proxy.sqlite"), TRUST_PROXY: "1" };
    const apiKey = account(env);
    const server = await startServerProcess({ ...env, HOST: "0.0.0.0" });
    const url = server.url.replace("0.0.0.0", "127.0.0.1");
    try {
      const auth = { authorization: basic("alice", apiKey) };
      const plain = await fetch(`${url}/v2/batches`, { headers: auth });
      expect(plain.status).toBe(403);
      expect(await plain.text()).toBe("HTTPS required: call this server with https://");
      const forwarded = await fetch(`${url}/v2/batches`, { headers: { ...auth, "x-forwarded-proto": "https" } });
      expect(forwarded.status).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("operations", () => {
  test("healthz answers without authentication and says nothing secret", async () => {
    const server = await startServerProcess({ DATABASE_URL: join(dir.path, "health.sqlite") });
    try {
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ database: "ok", status: "ok" });
    } finally {
      await server.stop();
    }
  });

  test("one JSON log line per request with method, route, status, duration, request id and user id; never the key", async () => {
    const env = { DATABASE_URL: join(dir.path, "logs.sqlite") };
    const apiKey = account(env);
    const server = await startServerProcess({ ...env, LOG_LEVEL: "info" });
    try {
      const auth = basic("alice", apiKey);
      const res = await fetch(`${server.url}/v2/batches/nope`, { headers: { authorization: auth, "x-request-id": "req-123" } });
      expect(res.status).toBe(404);
      expect(res.headers.get("x-request-id")).toBe("req-123");
      await Bun.sleep(100);
      const lines = server.output().split("\n").filter((l) => l.includes('"msg":"request"'));
      const line = JSON.parse(lines.find((l) => l.includes("req-123"))!);
      expect(line).toMatchObject({ level: "info", method: "GET", route: "/v2/batches/:id", status: 404, requestId: "req-123", userId: "alice" });
      expect(typeof line.ms).toBe("number");
      expect(server.output()).not.toContain(apiKey);
      expect(server.output()).not.toContain(auth.slice(6));
    } finally {
      await server.stop();
    }
  });

  test("a signed-in page's log line names its account, as an API call's does; never the password or the cookie", async () => {
    const env = { DATABASE_URL: join(dir.path, "page-logs.sqlite") };
    const password = "a long enough page password";
    expect(cli(["user", "add", "alice", "--password-stdin"], env, `${password}\n`).code).toBe(0);
    const server = await startServerProcess({ ...env, LOG_LEVEL: "info" });
    try {
      const form = await fetch(`${server.url}/signin`, { headers: { accept: "text/html" } });
      const visitor = form.headers.get("set-cookie")!.split(";")[0]!;
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const signedIn = await fetch(`${server.url}/signin`, {
        method: "POST",
        redirect: "manual",
        headers: { accept: "text/html", cookie: visitor, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, userId: "alice", password }).toString(),
      });
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
      const page = await fetch(`${server.url}/settings`, { headers: { accept: "text/html", cookie, "x-request-id": "page-1" } });
      expect(page.status).toBe(200);
      await page.arrayBuffer();
      await Bun.sleep(100);
      const line = JSON.parse(server.output().split("\n").find((l) => l.includes('"msg":"request"') && l.includes("page-1"))!);
      expect(line).toMatchObject({ method: "GET", route: "/settings", status: 200, requestId: "page-1", userId: "alice" });
      expect(server.output()).not.toContain(password);
      expect(server.output()).not.toContain(cookie.split("=")[1]!);
    } finally {
      await server.stop();
    }
  });

  test("SIGTERM lets an in-flight request finish, then exits 0", async () => {
    const env = { DATABASE_URL: join(dir.path, "drain.sqlite") };
    const apiKey = account(env);
    const server = await startServerProcess(env);
    // A slow upload keeps a request in flight while the signal arrives.
    const body = new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":'));
        await Bun.sleep(300);
        controller.enqueue(new TextEncoder().encode('"Brewing"}'));
        controller.close();
      },
    });
    const pending = fetch(`${server.url}/v2/batches/none`, {
      method: "PATCH",
      headers: { authorization: basic("alice", apiKey), "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    await Bun.sleep(100);
    const exit = server.stop("SIGTERM");
    const res = await pending;
    expect(res.status).toBe(404);
    expect(await exit).toBe(0);
  });
});
