import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { escapeHtml, html, raw } from "../../src/web/html.ts";

describe("html escaping", () => {
  test("interpolated text is escaped for content and quoted attributes", () => {
    const name = `<script>alert("x")</script> & 'y'`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      `<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>`,
    );
  });

  test("nested html is kept as markup, not escaped twice", () => {
    const inner = html`<b>${"a&b"}</b>`;
    expect(html`<p>${inner}</p>`.text).toBe("<p><b>a&amp;b</b></p>");
  });

  test("arrays are joined; null, undefined and booleans render nothing; numbers print", () => {
    expect(html`${["<", html`<i>`, 3]}|${null}|${undefined}|${false}|${true}|${0}`.text).toBe("&lt;<i>3|||||0");
  });

  test("raw markup is only what code builds explicitly", () => {
    expect(html`${raw("<svg/>")}`.text).toBe("<svg/>");
  });

  test("property: escaped text contains no markup character and unescapes to the original", () => {
    const unescape = (s: string) => s.replace(/&lt;|&gt;|&quot;|&#39;|&amp;/g, (e) => ({ "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" })[e]!);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), (s) => {
        const out = html`${s}`.text;
        expect(out).toBe(escapeHtml(s));
        expect(/[<>"']/.test(out)).toBe(false);
        expect(unescape(out)).toBe(s);
      }),
    );
  });
});
