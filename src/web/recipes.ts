import { calculateRecipe } from "../calc/index.ts";
import { viewerOf, type Web } from "./guard.ts";
import { html } from "./html.ts";
import { messagePage, page } from "./layout.ts";
import { recipeMain } from "./pages/recipe.ts";
import { recipeListMain, recipeTitle, type RecipeRow } from "./pages/recipes.ts";

const PAGE_SIZE = 50;

export async function getRecipeList(web: Web, request: Request): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const after = new URL(request.url).searchParams.get("after") || undefined;
  const texts = await web.store.list(viewer.userId, "recipe", { limit: PAGE_SIZE, orderBy: "name", desc: false, startAfter: after, fields: "summary" });
  if (texts === "unknown-cursor") return messagePage(400, "Page not found", "That page of the recipe list no longer exists.", viewer, html`<p><a href="/recipes">First page</a></p>`);
  const rows = texts.map((t) => JSON.parse(t) as RecipeRow);
  const next = rows.length === PAGE_SIZE ? `/recipes?${new URLSearchParams({ after: rows[rows.length - 1]!._id })}` : undefined;
  return page({ title: "Recipes", section: "recipes", viewer, main: recipeListMain({ rows, next, paged: Boolean(after) }) });
}

export async function getRecipe(web: Web, request: Request, id: string): Promise<Response> {
  const viewer = await viewerOf(web, request);
  if (viewer instanceof Response) return viewer;
  const text = await web.store.get(viewer.userId, "recipe", id);
  if (text === undefined) return messagePage(404, "Recipe not found", "There is no such recipe in this account.", viewer, html`<p><a href="/recipes">All recipes</a></p>`);
  // Figures the recipe carries are kept; an imported recipe without them gets the service's own.
  const recipe = calculateRecipe(JSON.parse(text) as Record<string, unknown>);
  return page({ title: recipeTitle(recipe), section: "recipes", viewer, main: recipeMain(recipe) });
}
