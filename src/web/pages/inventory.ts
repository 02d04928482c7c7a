import { INGREDIENT_COLLECTIONS, type IngredientCollection } from "../../resources.ts";
import { formatAmount, num, text } from "../format.ts";
import { html, type Html } from "../html.ts";
import { COLLECTION_LABEL, LEVEL_TEXT, stockLevel, stockUnit, type StockLevel } from "../stock-level.ts";

export interface InventoryItem {
  _id: string;
  name?: unknown;
  inventory?: unknown;
  type?: unknown;
  supplier?: unknown;
  alpha?: unknown;
  unit?: unknown;
  laboratory?: unknown;
}

const itemName = (item: InventoryItem) => text(item.name) ?? "Unnamed item";

function stockText(c: IngredientCollection, item: InventoryItem): Html {
  const stock = num(item.inventory);
  const level = stockLevel(c, item.inventory);
  const badge = LEVEL_TEXT[level] ? html` <span class="badge ${level}">${LEVEL_TEXT[level]}</span>` : "";
  return html`<span class="amount">${stock === undefined ? "–" : `${formatAmount(stock)} ${stockUnit(c, item)}`.trim()}</span>${badge}`;
}

// ——— /inventory: the four collections at a glance ———

export interface CollectionSummary {
  collection: IngredientCollection;
  items: InventoryItem[];
}

const needsAttention = (level: StockLevel) => level === "negative" || level === "low";

function summary({ collection: c, items }: CollectionSummary): Html {
  const levels = items.map((i) => stockLevel(c, i.inventory));
  const count = (l: StockLevel) => levels.filter((x) => x === l).length;
  const inStock = levels.filter((l) => l === "ok" || l === "low").length;
  // Low and negative stock is named; an item at zero is counted, as many are kept at zero on purpose.
  const attention = items.filter((_, i) => needsAttention(levels[i]!));
  const parts = [`${items.length} ${items.length === 1 ? "item" : "items"}`, `${inStock} in stock`];
  if (count("low")) parts.push(`${count("low")} low`);
  if (count("out")) parts.push(`${count("out")} out of stock`);
  if (count("negative")) parts.push(`${count("negative")} negative`);
  return html`<section class="collection" aria-labelledby="heading-${c}" id="summary-${c}">
<h2 id="heading-${c}"><a href="/inventory/${c}">${COLLECTION_LABEL[c]}</a></h2>
<p class="counts">${parts.join(", ")}.</p>
${attention.length ? html`<ul class="attention">${attention.map((i) => html`<li>${itemName(i)}: ${stockText(c, i)}</li>`)}</ul>` : ""}
</section>`;
}

export function inventoryOverviewMain(collections: CollectionSummary[]): Html {
  return html`<h1>Inventory</h1>
<p class="hint">Stock as kept through the API and these pages. Items running low and below zero are named here.</p>
<div class="collections">${collections.map(summary)}</div>`;
}

// ——— /inventory/<collection>: every item, with its stock to change ———

export interface CollectionView {
  collection: IngredientCollection;
  items: InventoryItem[];
  csrf: string;
  filter?: "exists" | "negative";
  next?: string;
  paged: boolean;
  /** The item just changed, with its new stock; or the refusal of a change, with the amount as typed. */
  changed?: InventoryItem;
  refused?: { id: string; name?: string; message: string; amount: string };
}

function details(c: IngredientCollection, item: InventoryItem): string {
  const alpha = num(item.alpha);
  return [text(item.type), c === "hops" && alpha !== undefined ? `${alpha} % alpha` : undefined, text(item.supplier) ?? text(item.laboratory)].filter(Boolean).join(" · ");
}

function itemRow(view: CollectionView, item: InventoryItem): Html {
  const c = view.collection;
  const id = encodeURIComponent(item._id);
  const refused = view.refused?.id === item._id ? view.refused : undefined;
  const unit = stockUnit(c, item);
  const sub = details(c, item);
  return html`<li class="item" id="item-${item._id}">
<div class="item-name"><span class="name">${itemName(item)}</span>${sub ? html`<br><span class="sub">${sub}</span>` : ""}</div>
<div class="stock">${stockText(c, item)}</div>
<form class="adjust" method="post" action="/inventory/${c}/${id}/stock">
<input type="hidden" name="csrf" value="${view.csrf}">
<label class="vh" for="amount-${item._id}">Amount of ${itemName(item)}${unit ? `, ${unit}` : ""}</label>
<input id="amount-${item._id}" name="amount" type="text" inputmode="decimal" autocomplete="off" size="6" value="${refused?.amount ?? ""}"${refused ? html` aria-invalid="true" aria-describedby="stock-error"` : ""}>
<button type="submit" name="mode" value="adjust">Adjust</button> <button type="submit" name="mode" value="set" class="secondary">Set</button>
</form>
</li>`;
}

export function collectionMain(view: CollectionView): Html {
  const c = view.collection;
  const choice = (value: string, label: string) => html`<option value="${value}"${(view.filter ?? "") === value ? html` selected` : ""}>${label}</option>`;
  const changed = view.changed;
  return html`<p class="crumbs"><a href="/inventory">Inventory</a></p>
<h1>${COLLECTION_LABEL[c]}</h1>
<nav class="tabs" aria-label="Collections">${INGREDIENT_COLLECTIONS.map((k) => (k === c ? html`<a href="/inventory/${k}" aria-current="page">${COLLECTION_LABEL[k]}</a>` : html`<a href="/inventory/${k}">${COLLECTION_LABEL[k]}</a>`))}</nav>
${view.refused ? html`<p class="error" role="alert" id="stock-error">${view.refused.name ? `${view.refused.name}: ` : ""}${view.refused.message}. Nothing was changed.</p>` : ""}
${changed ? html`<p class="notice" role="status" id="stock-changed">${itemName(changed)}: stock is now ${stockText(c, changed)}.</p>` : ""}
<form class="filter" method="get" action="/inventory/${c}">
<label for="show">Show</label>
<select id="show" name="show">${choice("", "All items")}${choice("exists", "In stock")}${choice("negative", "Below zero")}</select>
<button type="submit">Show</button>
</form>
<p class="hint">Adjust adds the amount to the stock (a negative amount takes it away); Set replaces the stock.</p>
${view.items.length === 0
    ? html`<p class="empty" id="no-items">${view.filter ? "No items match." : view.paged ? "No more items." : `No ${COLLECTION_LABEL[c].toLowerCase()} kept yet.`}</p>`
    : html`<ul class="items" id="inventory-items">${view.items.map((i) => itemRow(view, i))}</ul>`}
${view.next ? html`<p><a href="${view.next}" rel="next">More items</a></p>` : ""}`;
}
