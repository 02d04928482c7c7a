import { text } from "../format.ts";
import { html, type Html } from "../html.ts";

export interface RecipeRow {
  _id: string;
  name?: unknown;
  author?: unknown;
  type?: unknown;
  style?: { name?: unknown };
  equipment?: { name?: unknown };
}

export interface RecipeListView {
  rows: RecipeRow[];
  next?: string;
  paged: boolean;
}

export const recipeTitle = (r: { name?: unknown }) => text(r.name) ?? "Unnamed recipe";

function row(r: RecipeRow): Html {
  const sub = [text(r.type), text(r.author) && `by ${text(r.author)}`].filter(Boolean).join(" · ");
  return html`<tr>
<td><a href="/recipes/${encodeURIComponent(r._id)}">${recipeTitle(r)}</a>${sub ? html`<br><span class="sub">${sub}</span>` : ""}</td>
<td>${text(r.style?.name) ?? ""}</td>
</tr>`;
}

export function recipeListMain(view: RecipeListView): Html {
  return html`<h1>Recipes</h1>
${view.rows.length === 0
    ? html`<p class="empty" id="no-recipes">${view.paged ? "No more recipes." : "No recipes yet."}</p>`
    : html`<table class="list" id="recipe-list">
<caption>Recipes by name</caption>
<thead><tr><th scope="col">Recipe</th><th scope="col">Style</th></tr></thead>
<tbody>${view.rows.map(row)}</tbody>
</table>`}
${view.next ? html`<p><a href="${view.next}" rel="next">More recipes</a></p>` : ""}`;
}
