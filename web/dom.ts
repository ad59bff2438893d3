// Small DOM helpers. Text always goes in as text (never HTML): agent details, screen lines
// and messages come from programs and people, not from us.
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from the page`);
  return node as T;
}

/** "4 s", "3 min", "2 h": how long ago (or how long), for people. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Replaces a select's options, keeping the chosen value when it is still offered. */
export function setOptions(select: HTMLSelectElement, options: { value: string; label: string }[]): void {
  const wanted = options.map((o) => `${o.value}\u0000${o.label}`).join("\u0001");
  if (select.dataset.options === wanted) return;
  const chosen = select.value;
  select.replaceChildren(...options.map((o) => el("option", { value: o.value }, o.label)));
  select.dataset.options = wanted;
  if (options.some((o) => o.value === chosen)) select.value = chosen;
}
