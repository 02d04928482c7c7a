import { Elysia } from "elysia";

// An Elysia hello-world: the floor for cold start and idle memory of any Elysia server on this machine.
const app = new Elysia().get("/", () => "hello").listen({ hostname: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
console.log(`hello listening on http://127.0.0.1:${app.server?.port}`);
