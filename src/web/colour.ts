import { html, type Html } from "./html.ts";

// Beer colour from SRM, for a swatch beside the figure. Each channel falls off exponentially with the
// colour's depth: pale straw at 2 SRM, amber near 10, brown by 20, near black past 35. The fill is an
// SVG attribute, which the pages' policy allows (inline styles it does not).

const channel = (base: number, srm: number) => Math.round(Math.min(255, Math.max(0, 255 * base ** srm)));

/** "#rrggbb" for a colour in SRM (negative or missing reads as 0). */
export function srmHex(srm: number): string {
  const s = Number.isFinite(srm) ? Math.max(0, srm) : 0;
  return `#${[channel(0.975, s), channel(0.88, s), channel(0.7, s)].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** A small square of the colour; decorative, the number beside it says the colour. */
export function swatch(srm: number): Html {
  return html`<svg class="swatch" viewBox="0 0 1 1" width="16" height="16" aria-hidden="true" focusable="false"><rect width="1" height="1" fill="${srmHex(srm)}"/></svg>`;
}
