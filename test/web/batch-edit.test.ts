import { describe, expect, test } from "bun:test";
import { FERMENTING_ID, PLANNING_ID } from "./data.ts";
import { aliceWithRecords, csrfOf } from "./helpers.ts";

// The batch page's measured values: a form whose answer is the API's batch PATCH (API document,
// Batches), with its rules and its error strings.

async function editing() {
  const { h, c, api } = await aliceWithRecords(["batches.read", "batches.write"]);
  const stored = async (id = FERMENTING_ID) => (await h.store.get("alice", "batch", id))!;
  /** The form as the page shows it, with some boxes changed. */
  const submit = async (changes: Record<string, string>, id = FERMENTING_ID) => {
    const page = await c.get(`/batches/${id}`);
    const fields: Record<string, string> = { csrf: csrfOf(page.text)! };
    for (const m of page.text.matchAll(/<input id="m-[^"]+" name="([^"]+)"[^>]* value="([^"]*)"/g)) fields[m[1]!] = m[2]!;
    fields.status = /<option value="([^"]*)" selected>/.exec(page.text.slice(page.text.indexOf('id="m-status"')))![1]!;
    return c.post(`/batches/${id}/measured`, { ...fields, ...changes });
  };
  return { h, c, api, stored, submit };
}

describe("editing measured values on the batch page", () => {
  test("a value saved through the page is what the API then returns, and the page says Saved", async () => {
    const { c, api, submit } = await editing();
    const answer = await submit({ measuredFg: "1.011", measuredMashPh: " 5.4 " });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/batches/${FERMENTING_ID}?saved=1#measured-heading`);
    const batch = JSON.parse((await api(`/v2/batches/${FERMENTING_ID}`)).text);
    expect(batch.measuredFg).toBe(1.011);
    expect(batch.measuredMashPh).toBe(5.4);
    // Untouched boxes were not sent: the OG the brewer measured is as it was.
    expect(batch.measuredOg).toBe(1.052);
    const page = await c.get(answer.location!);
    expect(page.text).toContain(`<p class="notice" role="status" id="measured-saved">Saved.</p>`);
    expect(page.text).toContain(`name="measuredFg" type="text" inputmode="decimal" autocomplete="off" value="1.011"`);
  });

  test("a value out of the API's bounds is refused with the API's own message, and nothing is written", async () => {
    const { api, stored, submit } = await editing();
    const before = await stored();
    // A good value in the same form is not written either: the change is all or nothing.
    const page = await submit({ measuredFg: "1.011", measuredOg: "2.5" });
    expect(page.status).toBe(400);
    const apiAnswer = await api(`/v2/batches/${FERMENTING_ID}`, { method: "PATCH", body: JSON.stringify({ measuredOg: 2.5 }) });
    expect(apiAnswer).toEqual({ status: 400, text: "Invalid measuredOg" });
    expect(page.text).toContain(`<p class="error" role="alert" id="measured-error">Invalid measuredOg</p>`);
    expect(page.text).toContain(`<input id="m-measuredOg" name="measuredOg" type="text" inputmode="decimal" autocomplete="off" value="2.5" aria-describedby="m-measuredOg-hint measured-error" aria-invalid="true">`);
    expect(page.text).toContain(`<span class="hint" id="m-measuredOg-hint">SG, 0.1 to 1.9</span>`);
    expect(await stored()).toBe(before);
  });

  test("text that is no number is refused as the API refuses it: a decimal comma is not a number", async () => {
    const { api, stored, submit } = await editing();
    const before = await stored();
    const page = await submit({ measuredBatchSize: "21,5" });
    expect(page.status).toBe(400);
    expect((await api(`/v2/batches/${FERMENTING_ID}`, { method: "PATCH", body: JSON.stringify({ measuredBatchSize: "21,5" }) })).text).toBe("Invalid measuredBatchSize");
    expect(page.text).toContain(`id="measured-error">Invalid measuredBatchSize</p>`);
    expect(await stored()).toBe(before);
  });

  test("an emptied box clears its value (null, as in the API); an untouched form changes nothing", async () => {
    const { c, stored, submit } = await editing();
    const cleared = await submit({ measuredBatchSize: "" });
    expect(cleared.location).toBe(`/batches/${FERMENTING_ID}?saved=1#measured-heading`);
    expect(JSON.parse(await stored()).measuredBatchSize).toBeNull();

    const before = await stored();
    const same = await submit({});
    expect(same.location).toBe(`/batches/${FERMENTING_ID}?saved=0#measured-heading`);
    expect(await stored()).toBe(before);
    expect((await c.get(same.location!)).text).toContain(`id="measured-saved">Nothing changed.</p>`);
  });

  test("the status is changed with the same form", async () => {
    const { stored, submit } = await editing();
    expect((await submit({ status: "Conditioning" })).status).toBe(303);
    expect(JSON.parse(await stored()).status).toBe("Conditioning");
    const refused = await submit({ status: "Drinking" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(`id="measured-error">Invalid status</p>`);
    expect(JSON.parse(await stored()).status).toBe("Conditioning");
  });

  test("from a filtered list, saving returns to the page that leads back to that list", async () => {
    const { c } = await editing();
    const page = await c.get(`/batches/${PLANNING_ID}?list=Planning`);
    expect(page.text).toContain(`action="/batches/${PLANNING_ID}/measured?list=Planning"`);
    const answer = await c.post(`/batches/${PLANNING_ID}/measured?list=Planning`, { csrf: csrfOf(page.text)!, measuredOg: "1.060" });
    expect(answer.location).toBe(`/batches/${PLANNING_ID}?list=Planning&saved=1#measured-heading`);
  });

  test("a post without the CSRF token is 403 and changes nothing; another account's batch is 404", async () => {
    const { h, c, stored } = await editing();
    const before = await stored();
    const forged = await c.post(`/batches/${FERMENTING_ID}/measured`, { measuredOg: "1.060" });
    expect(forged.status).toBe(403);
    expect(await stored()).toBe(before);

    const bob = h.client();
    await bob.signIn("bob");
    const other = await bob.post(`/batches/${FERMENTING_ID}/measured`, { csrf: await bob.token(), measuredOg: "1.060" });
    expect(other.status).toBe(404);
    expect(other.text).toContain("<h1>Batch not found</h1>");
    expect(await stored()).toBe(before);
  });

  test("signed out, the post goes to the sign-in page and changes nothing", async () => {
    const { h, stored } = await editing();
    const before = await stored();
    const stranger = h.client();
    const answer = await stranger.post(`/batches/${FERMENTING_ID}/measured`, { measuredOg: "1.060" });
    expect(answer.status).toBe(303);
    expect(answer.location).toStartWith("/signin");
    expect(await stored()).toBe(before);
  });
});
