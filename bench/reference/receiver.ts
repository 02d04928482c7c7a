// The webhook receiver of scenario 12: answers every delivery 204 and counts them, and the distinct
// `webhook-id`s among them (a delivery made again after a lost outcome counts once). GET /count gives
// {"received": n, "distinct": n}. PORT from the environment; 127.0.0.1 only.

const ids = new Set<string>();
let received = 0;

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT),
  idleTimeout: 30,
  fetch: async (request) => {
    if (request.method === "GET") return Response.json({ received, distinct: ids.size });
    await request.arrayBuffer();
    received++;
    ids.add(request.headers.get("webhook-id") ?? "");
    return new Response(null, { status: 204 });
  },
});
