import { swatch } from "../colour.ts";
import { fixed, formatSg, num, text } from "../format.ts";
import { html, type Html } from "../html.ts";
import { recipeTitle } from "./recipes.ts";

// A recipe as a brewer reads it: what it makes (the calculated figures, against its style's ranges
// where the style has them), how much water and wort, and what goes in.

type Doc = Record<string, unknown>;
const obj = (v: unknown): Doc => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Doc) : {});
const list = (v: unknown): Doc[] => (Array.isArray(v) ? v.filter((x): x is Doc => typeof x === "object" && x !== null && !Array.isArray(x)) : []);
const amount = (v: unknown, unit: string, digits = 2) => {
  const n = num(v);
  return n === undefined ? "" : `${Number(n.toFixed(digits))} ${unit}`.trim();
};

type Figure = [key: string, label: string, format: (v: number) => string, min: string, max: string];
const FIGURES: Figure[] = [
  ["og", "Original gravity", formatSg, "ogMin", "ogMax"],
  ["fg", "Final gravity", formatSg, "fgMin", "fgMax"],
  ["abv", "ABV", fixed(1, " %"), "abvMin", "abvMax"],
  ["ibu", "Bitterness", fixed(0, " IBU"), "ibuMin", "ibuMax"],
  ["color", "Colour", fixed(1, " SRM"), "colorMin", "colorMax"],
  ["buGuRatio", "BU:GU", fixed(2), "buGuMin", "buGuMax"],
];

/** Where a value sits against a style's range: the words, not only a colour, say it. */
export function rangeVerdict(value: number, min: number, max: number): "within" | "below" | "above" {
  return value < min ? "below" : value > max ? "above" : "within";
}

function figures(recipe: Doc): Html {
  const style = obj(recipe.style);
  const rows = FIGURES.flatMap(([key, label, format, minKey, maxKey]) => {
    const v = num(recipe[key]);
    if (v === undefined) return [];
    const min = num(style[minKey]);
    const max = num(style[maxKey]);
    const range = min !== undefined && max !== undefined;
    const verdict = range ? rangeVerdict(v, min, max) : undefined;
    return [
      html`<tr id="figure-${key}"><th scope="row">${label}</th><td class="num">${key === "color" ? html`${swatch(v)} ` : ""}${format(v)}</td><td>${range ? html`${format(min)} – ${format(max)}` : html`<span class="sub">–</span>`}</td><td>${verdict ? html`<span class="verdict ${verdict}">${verdict}</span>` : ""}</td></tr>`,
    ];
  });
  const styleName = text(style.name);
  return html`<table class="values figures-table" id="recipe-figures"><caption>Calculated${styleName ? `, against the ${styleName} style` : ""}</caption>
<thead><tr><th scope="col">Figure</th><th scope="col" class="num">Recipe</th><th scope="col">Style range</th><th scope="col">Fit</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function volumes(recipe: Doc): Html {
  const eq = obj(recipe.equipment);
  const data = obj(recipe.data);
  const items: Array<[string, string]> = [
    ["Batch size", amount(recipe.batchSize ?? eq.batchSize, "L", 1)],
    ["Pre-boil volume", amount(recipe.boilSize, "L", 1)],
    ["Boil time", amount(recipe.boilTime ?? eq.boilTime, "min", 0)],
    ["Pre-boil gravity", num(recipe.preBoilGravity) === undefined ? "" : formatSg(num(recipe.preBoilGravity)!)],
    ["Post-boil gravity", num(recipe.postBoilGravity) === undefined ? "" : formatSg(num(recipe.postBoilGravity)!)],
    ["Efficiency", amount(recipe.efficiency ?? eq.efficiency, "%", 1)],
    ["Mash water", amount(data.mashWaterAmount, "L", 1)],
    ["Sparge water", amount(data.spargeWaterAmount, "L", 1)],
    ["Total water", amount(data.totalWaterAmount, "L", 1)],
    ["Strike temperature", amount(data.strikeTemp, "°C", 1)],
  ];
  const rows = items.filter(([, v]) => v !== "").map(([k, v]) => html`<tr><th scope="row">${k}</th><td class="num">${v}</td></tr>`);
  return html`<table class="values" id="recipe-volumes"><caption>Volumes and water</caption><tbody>${rows}</tbody></table>`;
}

function table(id: string, caption: string, head: string[], rows: Html[]): Html {
  if (rows.length === 0) return html``;
  return html`<table class="list ingredients" id="${id}"><caption>${caption}</caption>
<thead><tr>${head.map((h, i) => html`<th scope="col"${i > 0 && i === head.length - 1 ? html` class="num"` : ""}>${h}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table>`;
}

const sub = (parts: Array<string | undefined>) => {
  const s = parts.filter(Boolean).join(" · ");
  return s ? html`<br><span class="sub">${s}</span>` : "";
};

function ingredients(recipe: Doc): Html {
  const fermentables = list(recipe.fermentables).map(
    (f) => html`<tr><td>${text(f.name) ?? "–"}${sub([text(f.type), text(f.supplier)])}</td><td class="num">${num(f.color) === undefined ? "" : html`${swatch(num(f.color)!)} ${fixed(1, " SRM")(num(f.color)!)}`}</td><td class="num">${amount(f.amount, "kg", 3)}${sub([num(f.percentage) === undefined ? undefined : `${fixed(1, " %")(num(f.percentage)!)}`])}</td></tr>`,
  );
  const hops = list(recipe.hops).map((h) => {
    const time = num(h.time);
    const use = [text(h.use), time === undefined ? undefined : `${time} ${h.use === "Dry Hop" ? "days" : "min"}`].filter(Boolean).join(", ");
    return html`<tr><td>${text(h.name) ?? "–"}${sub([num(h.alpha) === undefined ? undefined : `${num(h.alpha)} % alpha`, text(h.type)])}</td><td>${use}</td><td class="num">${amount(h.amount, "g", 1)}${sub([num(h.ibu) === undefined ? undefined : `${fixed(1, " IBU")(num(h.ibu)!)}`])}</td></tr>`;
  });
  const miscs = list(recipe.miscs).map(
    (m) => html`<tr><td>${text(m.name) ?? "–"}${sub([text(m.type)])}</td><td>${text(m.use) ?? ""}</td><td class="num">${amount(m.amount, text(m.unit) ?? "", 2)}</td></tr>`,
  );
  const yeasts = list(recipe.yeasts).map(
    (y) => html`<tr><td>${text(y.name) ?? "–"}${sub([text(y.laboratory), text(y.productId)])}</td><td class="num">${num(y.attenuation) === undefined ? "" : `${num(y.attenuation)} %`}</td><td class="num">${amount(y.amount, text(y.unit) ?? "", 2)}</td></tr>`,
  );
  const all = [
    table("recipe-fermentables", "Fermentables", ["Fermentable", "Colour", "Amount"], fermentables),
    table("recipe-hops", "Hops", ["Hop", "Use", "Amount"], hops),
    table("recipe-miscs", "Other ingredients", ["Ingredient", "Use", "Amount"], miscs),
    table("recipe-yeasts", "Yeasts", ["Yeast", "Attenuation", "Amount"], yeasts),
  ];
  return fermentables.length + hops.length + miscs.length + yeasts.length ? html`${all}` : html`<p>No ingredients yet.</p>`;
}

function steps(recipe: Doc): Html {
  const mash = list(obj(recipe.mash).steps).map((s) => html`<li>${[text(s.name), amount(s.stepTemp, "°C", 1), amount(s.stepTime, "min", 0)].filter(Boolean).join(", ")}</li>`);
  const ferm = list(obj(recipe.fermentation).steps).map((s) => html`<li>${[text(s.type) ?? text(s.name), amount(s.stepTemp, "°C", 1), amount(s.stepTime, s.stepTime === 1 ? "day" : "days", 0)].filter(Boolean).join(", ")}</li>`);
  if (!mash.length && !ferm.length) return html``;
  return html`<section aria-labelledby="steps-heading"><h2 id="steps-heading">Mash and fermentation</h2>
${mash.length ? html`<h3>Mash</h3><ol class="steps" id="mash-steps">${mash}</ol>` : ""}
${ferm.length ? html`<h3>Fermentation</h3><ol class="steps" id="fermentation-steps">${ferm}</ol>` : ""}</section>`;
}

/** The recipe page from a recipe with its calculated fields filled in (calculateRecipe). */
export function recipeMain(recipe: Doc): Html {
  const facts: Array<[string, string | undefined]> = [
    ["Type", text(recipe.type)],
    ["Style", text(obj(recipe.style).name)],
    ["Author", text(recipe.author)],
    ["Equipment", text(obj(recipe.equipment).name)],
  ];
  return html`<p class="crumbs"><a href="/recipes">Recipes</a></p>
<h1>${recipeTitle(recipe)}</h1>
<dl class="facts">${facts.filter(([, v]) => v !== undefined).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
<section aria-labelledby="figures-heading"><h2 id="figures-heading">Figures</h2>
${figures(recipe)}
${volumes(recipe)}
</section>
<section aria-labelledby="ingredients-heading"><h2 id="ingredients-heading">Ingredients</h2>
${ingredients(recipe)}
</section>
${steps(recipe)}
${text(recipe.notes) ? html`<section aria-labelledby="recipe-notes-heading"><h2 id="recipe-notes-heading">Notes</h2><p class="note-text">${text(recipe.notes)}</p></section>` : ""}`;
}
