import type { FermentationFigures } from "../figures.ts";
import { ago, duration, formatSg, formatSgChange } from "../format.ts";
import { html, type Html } from "../html.ts";

const OG_FROM = { measured: "measured OG", "first reading": "first reading", recipe: "recipe's estimate" } as const;

/** Where fermentation stands, from the readings: shown above the chart. */
export function figuresPanel(figures: FermentationFigures | undefined, now: number): Html {
  if (!figures) return html``;
  const { current, og, change } = figures;
  const items: Html[] = [html`<div><dt>Current gravity</dt><dd id="current-gravity">${formatSg(current.sg)}</dd></div>`];
  if (figures.attenuation !== undefined && og) {
    items.push(html`<div><dt>Apparent attenuation</dt><dd id="attenuation-so-far">${figures.attenuation.toFixed(1)} %</dd></div>`);
    items.push(html`<div><dt>ABV so far</dt><dd id="abv-so-far">${figures.abv!.toFixed(1)} %</dd></div>`);
  }
  if (change) {
    const span = Math.abs(change.hours - 24) < 0.5 ? "last 24 h" : `last ${duration(change.hours * 3_600_000)}`;
    items.push(html`<div><dt>Change, ${span}</dt><dd id="gravity-change">${formatSgChange(change.delta)}</dd></div>`);
  }
  items.push(html`<div><dt>Last reading</dt><dd id="last-reading-age"><time datetime="${new Date(figures.lastTime).toISOString()}">${ago(figures.lastTime, now)}</time></dd></div>`);
  const basis = og ? html`<p class="hint" id="figures-basis">From an original gravity of ${formatSg(og.sg)} (${OG_FROM[og.source]}).</p>` : html``;
  return html`<dl class="figures" id="fermentation-figures">${items}</dl>${basis}`;
}
