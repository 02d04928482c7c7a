// Server-rendered HTML. Every interpolated value is escaped unless it is already `Html` (produced by
// this module), so a page cannot forget to escape: the safe path is the default one.

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for element content and for quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false || part === true) return "";
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested `html` results stay as they are. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  parts.forEach((p, i) => {
    out += render(p) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup built by trusted code (for example the chart), taken as is. */
export const raw = (text: string) => new Html(text);
