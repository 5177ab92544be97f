/**
 * Shopify's search syntax for `query:` arguments (https://shopify.dev/api/usage/search-syntax):
 * `field:value` terms with `:<`, `:<=`, `:>`, `:>=` comparators, quoted values, `*` suffix
 * wildcards, implicit AND, `OR`, `NOT` / `-term` and parentheses. Unknown fields are ignored, as
 * Shopify ignores them (it only adds a search warning).
 */
export type Comparator = "" | "<" | "<=" | ">" | ">=";

/** Longest first, so `<=` is not read as `<`. */
const COMPARATORS: readonly Comparator[] = ["<=", ">=", "<", ">", ""];

export interface Term {
  field: string | null;
  comparator: Comparator;
  value: string;
}

export type FieldMatcher<T> = (record: T, term: Term) => boolean;

export interface SearchFields<T> {
  fields: Record<string, FieldMatcher<T>>;
  /** A bare word: Shopify's case-insensitive search over several fields. */
  text: (record: T, value: string) => boolean;
}

type Node<T> = (record: T) => boolean;

/** Compiles a query into a predicate; an empty or missing query matches everything. */
export function compileSearch<T>(
  query: string | null | undefined,
  spec: SearchFields<T>,
): (record: T) => boolean {
  const tokens = tokenize(query ?? "");
  if (tokens.length === 0) return () => true;
  const parser = new Parser(tokens, spec);
  return parser.parse();
}

class Parser<T> {
  private index = 0;
  constructor(
    private readonly tokens: string[],
    private readonly spec: SearchFields<T>,
  ) {}

  parse(): Node<T> {
    // Anything after a stray closing parenthesis is ignored rather than failing the request.
    return this.or();
  }

  private or(): Node<T> {
    const parts = [this.and()];
    while (this.peek() === "OR") {
      this.index += 1;
      parts.push(this.and());
    }
    return parts.length === 1 ? parts[0]! : (record) => parts.some((part) => part(record));
  }

  private and(): Node<T> {
    const parts: Node<T>[] = [];
    for (;;) {
      const token = this.peek();
      if (token === undefined || token === ")" || token === "OR") break;
      if (token === "AND") {
        this.index += 1;
        continue;
      }
      parts.push(this.unary());
    }
    if (parts.length === 0) return () => true;
    return parts.length === 1 ? parts[0]! : (record) => parts.every((part) => part(record));
  }

  private unary(): Node<T> {
    const token = this.peek();
    if (token === "NOT") {
      this.index += 1;
      const inner = this.unary();
      return (record) => !inner(record);
    }
    if (token === "(") {
      this.index += 1;
      const inner = this.or();
      if (this.peek() === ")") this.index += 1;
      return inner;
    }
    this.index += 1;
    if (token!.startsWith("-") && token!.length > 1) {
      const inner = this.term(token!.slice(1));
      return (record) => !inner(record);
    }
    return this.term(token!);
  }

  private term(token: string): Node<T> {
    const term = parseTerm(token);
    if (term.field === null) {
      const text = this.spec.text;
      return (record) => text(record, term.value);
    }
    const matcher = this.spec.fields[term.field];
    if (!matcher) return () => true;
    return (record) => matcher(record, term);
  }

  private peek(): string | undefined {
    return this.tokens[this.index];
  }
}

function tokenize(query: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < query.length) {
    const char = query[i]!;
    if (/\s/.test(char)) {
      i += 1;
    } else if (char === "(" || char === ")") {
      tokens.push(char);
      i += 1;
    } else {
      let word = "";
      while (i < query.length && !/[\s()]/.test(query[i]!)) {
        const quote = query[i];
        if (quote === '"' || quote === "'") {
          const end = query.indexOf(quote, i + 1);
          const stop = end === -1 ? query.length : end + 1;
          word += query.slice(i, stop);
          i = stop;
        } else {
          word += quote;
          i += 1;
        }
      }
      tokens.push(word);
    }
  }
  return tokens;
}

function parseTerm(token: string): Term {
  const colon = token.search(/:(?=(?:[^"']|"[^"]*"|'[^']*')*$)/);
  if (colon <= 0) return { field: null, comparator: "", value: unquote(token) };
  const field = token.slice(0, colon).toLowerCase();
  let rest = token.slice(colon + 1);
  const comparator = COMPARATORS.find((candidate) => candidate !== "" && rest.startsWith(candidate)) ?? "";
  rest = rest.slice(comparator.length);
  return { field, comparator, value: unquote(rest) };
}

function unquote(value: string): string {
  return value.replace(/^(["'])(.*)\1$/s, "$2");
}

/** Case-insensitive equality, with a trailing `*` as a prefix wildcard. */
export function matchText(actual: string | null | undefined, term: Term): boolean {
  if (actual === null || actual === undefined) return false;
  const wanted = term.value.toLowerCase();
  const value = actual.toLowerCase();
  if (wanted === "*") return true;
  if (wanted.endsWith("*")) return value.startsWith(wanted.slice(0, -1));
  return compare(value, wanted, term.comparator);
}

export function matchNumber(actual: number | null | undefined, term: Term): boolean {
  const wanted = Number(term.value);
  if (actual === null || actual === undefined || Number.isNaN(wanted)) return false;
  return compare(actual, wanted, term.comparator);
}

/** Numeric ids; the value may be a number or a gid. */
export function matchId(actual: number, term: Term): boolean {
  const wanted = Number(/(\d+)$/.exec(term.value)?.[1] ?? Number.NaN);
  return !Number.isNaN(wanted) && compare(actual, wanted, term.comparator);
}

export function matchBoolean(actual: boolean, term: Term): boolean {
  return actual === (term.value.toLowerCase() === "true");
}

/**
 * Times: full ISO instants, dates, `2024-05`, `2024` or `now`. A partial date covers its whole
 * period, so `updated_at:2024` matches the year and `updated_at:>2024-05-01` starts after that day.
 */
export function matchTime(actualMs: number, term: Term, nowMs: number): boolean {
  const range = timeRange(term.value, nowMs);
  if (!range) return false;
  const [start, end] = range;
  switch (term.comparator) {
    case "":
      return actualMs >= start && actualMs < end;
    case ">":
      return actualMs >= end;
    case ">=":
      return actualMs >= start;
    case "<":
      return actualMs < start;
    case "<=":
      return actualMs < end;
  }
}

function timeRange(value: string, nowMs: number): [number, number] | null {
  if (value.toLowerCase() === "now") return [nowMs, nowMs + 1];
  const parts = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (parts) {
    const year = Number(parts[1]);
    if (parts[3]) {
      const start = Date.UTC(year, Number(parts[2]) - 1, Number(parts[3]));
      return [start, start + 86_400_000];
    }
    if (parts[2]) return [Date.UTC(year, Number(parts[2]) - 1, 1), Date.UTC(year, Number(parts[2]), 1)];
    return [Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1)];
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  // An instant given to the second covers that second (DateTime values carry no milliseconds).
  return /\.\d+/.test(value) ? [ms, ms + 1] : [ms, ms + 1000];
}

function compare<V extends string | number>(actual: V, wanted: V, comparator: Comparator): boolean {
  switch (comparator) {
    case "":
      return actual === wanted;
    case "<":
      return actual < wanted;
    case "<=":
      return actual <= wanted;
    case ">":
      return actual > wanted;
    case ">=":
      return actual >= wanted;
  }
}
