import { invalidRequest } from "./errors.ts";

/**
 * A request's parameters as Stripe's v1 API receives them: form (or query) pairs with bracket
 * keys (`line_items[0][price]`, `expand[]`, `metadata[plan]`) folded into nested objects. Lists
 * stay objects keyed "0", "1"... (`[]` takes the next free index); readers turn them into arrays.
 */
export type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

export function parseFormPairs(pairs: Iterable<[string, string]>): FormObject {
  const root: FormObject = {};
  for (const [key, value] of pairs) assign(root, { segments: splitKey(key), value, fullKey: key });
  return root;
}

export function parseFormText(text: string): FormObject {
  return parseFormPairs(new URLSearchParams(text));
}

/** `a[b][0][]` -> ["a", "b", "0", ""]; a key with unbalanced brackets is taken literally. */
function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0 || !key.endsWith("]")) return [key];
  const segments = [key.slice(0, open)];
  const rest = key.slice(open);
  const pattern = /\[([^[\]]*)\]/g;
  let consumed = 0;
  for (const match of rest.matchAll(pattern)) {
    if (match.index !== consumed) return [key];
    segments.push(match[1] ?? "");
    consumed += match[0].length;
  }
  return consumed === rest.length ? segments : [key];
}

function assign(
  root: FormObject,
  { segments, value, fullKey }: { segments: string[]; value: string; fullKey: string },
): void {
  let node = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] === "" ? String(nextIndex(node)) : segments[i]!;
    if (i === segments.length - 1) {
      if (typeof node[segment] === "object") throw conflicting(fullKey);
      node[segment] = value;
      return;
    }
    const existing = node[segment];
    if (existing === undefined) {
      const child: FormObject = {};
      node[segment] = child;
      node = child;
    } else if (typeof existing === "object") {
      node = existing;
    } else if (existing === "") {
      // `metadata=` followed by `metadata[a]=b`: the later, more specific value wins.
      const child: FormObject = {};
      node[segment] = child;
      node = child;
    } else {
      throw conflicting(fullKey);
    }
  }
}

function nextIndex(node: FormObject): number {
  let index = 0;
  while (String(index) in node) index++;
  return index;
}

function conflicting(key: string) {
  return invalidRequest(`Invalid value for ${key}: a parameter cannot be both a value and a hash.`, {
    param: key,
  });
}
