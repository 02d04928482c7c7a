import type { Deps } from "../http/deps.ts";
import { bodyOrThrow } from "../http/body.ts";
import { ApiRoutes } from "../http/endpoint.ts";
import { badRequest, ERRORS, jsonText, notFound, TEXT } from "../http/errors.ts";
import { canonicalJson } from "../lib/json.ts";
import { badRequestText, ID_PARAMETER, json, jsonBody, NOT_FOUND, ok, ref } from "../openapi/operations.ts";
import { refuseOnBatch } from "../batches/service.ts";
import { appendReading } from "./append.ts";

// Writing a batch's readings through the API: beyond the hosted API (README, "Beyond the hosted API").
// Scope batches.write; a missing batch is 404 before any 400 (precedence).

const TIME_PARAMETER = { name: "time", in: "path", required: true, schema: { type: "integer", minimum: 0 }, description: "The reading's `time` (ms)" };

export function readingRoutes(deps: Deps): void {
  const { store } = deps;
  new ApiRoutes(deps, { version: 2, tag: "Batches", addition: true })
    .post(
      "/v2/batches/:id/readings",
      {
        scope: "batches.write",
        body: "held",
        answer: "reply",
        doc: {
          summary: "Add a reading to a batch",
          description:
            "One Reading Object in SG and °C (`time` in ms, default now; `sg`, `temp`, `pressure`, `ph`, `battery`, `rssi`, `angle` as numbers or numeric strings; `comment`, `type`, `id` as text). Placed by its `time`; a reading at the same `time` is replaced, so a retried post does not duplicate. Answers the reading as stored.",
          parameters: [ID_PARAMETER],
          requestBody: jsonBody(ref("Reading"), "The reading"),
          responses: { "201": json(ref("Reading"), "The reading as stored"), "400": badRequestText("Invalid sg"), "404": NOT_FOUND },
        },
      },
      async ({ params, userId, body }) => {
        try {
          const input = bodyOrThrow(body);
          if (!input) throw badRequest(ERRORS.missingBody);
          return jsonText(canonicalJson(await appendReading(store, userId, params.id, input)), 201);
        } catch (error) {
          return refuseOnBatch(store, userId, params.id, error);
        }
      },
    )
    .delete(
      "/v2/batches/:id/readings/:time",
      {
        scope: "batches.write",
        answer: "text",
        doc: {
          summary: "Delete a reading of a batch",
          description: "The reading(s) at exactly `time` (a mistyped sample). 404 when the batch has none at that time.",
          parameters: [ID_PARAMETER, TIME_PARAMETER],
          responses: { "200": ok("Deleted"), "400": badRequestText("Invalid time"), "404": NOT_FOUND },
        },
      },
      async ({ params, userId }) => {
        const time = /^\d+$/.test(params.time) ? Number(params.time) : Number.NaN;
        if (!Number.isSafeInteger(time)) return refuseOnBatch(store, userId, params.id, badRequest(ERRORS.invalidField("time")));
        if (!(await store.deleteReading(userId, params.id, time))) throw notFound();
        return TEXT.deleted;
      },
    );
}
