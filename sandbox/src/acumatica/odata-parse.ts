/**
 * Parses `$filter` as Acumatica documents it (OData v3 URI conventions, acumatica.md §4.1):
 * eq/ne/gt/ge/lt/le, and/or/not, parentheses, 'strings' ('' escapes a quote), numbers,
 * true/false/null, datetimeoffset'..', datetime'..', date'..', guid'..' and function calls.
 */
export class FilterError extends Error {
  /** true: the text does not parse (400); false: it names an unknown field or mixes types (500). */
  constructor(
    message: string,
    readonly syntax: boolean,
  ) {
    super(message);
  }
}

export type CompareOp = "eq" | "ne" | "gt" | "ge" | "lt" | "le";
export type Literal =
  | { type: "string"; value: string }
  | { type: "number"; value: number }
  | { type: "datetime"; value: number }
  | { type: "boolean"; value: boolean }
  | { type: "guid"; value: string }
  | { type: "null" };

export type FilterNode =
  | { kind: "logical"; op: "and" | "or"; left: FilterNode; right: FilterNode }
  | { kind: "not"; operand: FilterNode }
  | { kind: "compare"; op: CompareOp; left: FilterNode; right: FilterNode }
  | { kind: "call"; name: string; args: FilterNode[] }
  | { kind: "field"; path: string }
  | { kind: "literal"; literal: Literal };

type Token =
  | { type: "word"; text: string; at: number }
  | { type: "literal"; literal: Literal; at: number }
  | { type: "punct"; text: "(" | ")" | ","; at: number };

const COMPARE_OPS = new Set(["eq", "ne", "gt", "ge", "lt", "le"]);

export function parseFilter(text: string): FilterNode {
  const tokens = tokenize(text);
  let position = 0;
  const peek = () => tokens[position];
  const isWord = (word: string) => {
    const token = peek();
    return token?.type === "word" && token.text.toLowerCase() === word;
  };
  const isPunct = (text: string) => {
    const token = peek();
    return token?.type === "punct" && token.text === text;
  };
  const fail = (message: string): never => {
    const at = peek()?.at ?? text.length;
    throw new FilterError(`Syntax error at position ${at} in '${text}': ${message}.`, true);
  };

  function parseOr(): FilterNode {
    let left = parseAnd();
    while (isWord("or")) {
      position += 1;
      left = { kind: "logical", op: "or", left, right: parseAnd() };
    }
    return left;
  }
  function parseAnd(): FilterNode {
    let left = parseUnary();
    while (isWord("and")) {
      position += 1;
      left = { kind: "logical", op: "and", left, right: parseUnary() };
    }
    return left;
  }
  function parseUnary(): FilterNode {
    if (isWord("not")) {
      position += 1;
      return { kind: "not", operand: parseUnary() };
    }
    const left = parsePrimary();
    const token = peek();
    if (token?.type === "word" && COMPARE_OPS.has(token.text.toLowerCase())) {
      position += 1;
      return { kind: "compare", op: token.text.toLowerCase() as CompareOp, left, right: parsePrimary() };
    }
    return left;
  }
  function parsePrimary(): FilterNode {
    const token = peek();
    if (!token) return fail("an operand is missing");
    if (token.type === "punct") {
      if (token.text !== "(") return fail(`unexpected '${token.text}'`);
      position += 1;
      const inner = parseOr();
      if (!isPunct(")")) return fail("')' expected");
      position += 1;
      return inner;
    }
    position += 1;
    if (token.type === "literal") return { kind: "literal", literal: token.literal };
    const lower = token.text.toLowerCase();
    if (lower === "true" || lower === "false")
      return { kind: "literal", literal: { type: "boolean", value: lower === "true" } };
    if (lower === "null") return { kind: "literal", literal: { type: "null" } };
    const next = peek();
    if (next?.type === "punct" && next.text === "(") {
      position += 1;
      const args: FilterNode[] = [];
      while (!isPunct(")")) {
        if (position >= tokens.length) return fail("')' expected");
        if (args.length > 0) {
          if (!isPunct(",")) return fail("',' expected");
          position += 1;
        }
        args.push(parseOr());
      }
      position += 1;
      return { kind: "call", name: token.text, args };
    }
    if (COMPARE_OPS.has(lower) || lower === "and" || lower === "or")
      return fail(`'${token.text}' needs an operand`);
    return { kind: "field", path: token.text };
  }

  const root = parseOr();
  if (position < tokens.length) fail("unexpected text after the expression");
  return root;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i += 1;
    } else if (char === "(" || char === ")" || char === ",") {
      tokens.push({ type: "punct", text: char, at: i });
      i += 1;
    } else if (char === "'") {
      const { value, end } = readQuoted(text, i);
      tokens.push({ type: "literal", literal: { type: "string", value }, at: i });
      i = end;
    } else if (/[0-9-]/.test(char)) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?[mMdDfFlL]?/.exec(text.slice(i));
      if (!match) throw new FilterError(`Syntax error at position ${i} in '${text}': bad number.`, true);
      tokens.push({
        type: "literal",
        literal: { type: "number", value: Number.parseFloat(match[0]) },
        at: i,
      });
      i += match[0].length;
    } else if (/[A-Za-z_$]/.test(char)) {
      const match = /^[A-Za-z_$][A-Za-z0-9_./]*/.exec(text.slice(i))!;
      const word = match[0];
      if (text[i + word.length] === "'") {
        const { value, end } = readQuoted(text, i + word.length);
        tokens.push({ type: "literal", literal: typedLiteral(word, value), at: i });
        i = end;
      } else {
        tokens.push({ type: "word", text: word, at: i });
        i += word.length;
      }
    } else {
      throw new FilterError(`Syntax error at position ${i} in '${text}': unexpected '${char}'.`, true);
    }
  }
  return tokens;
}

function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === "'") {
      if (text[i + 1] === "'") {
        value += "'";
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    value += text[i];
    i += 1;
  }
  throw new FilterError(`Syntax error at position ${start} in '${text}': unterminated string literal.`, true);
}

function typedLiteral(prefix: string, raw: string): Literal {
  const kind = prefix.toLowerCase();
  if (kind === "datetimeoffset" || kind === "datetime") {
    // Without an offset the value is UTC; a '+' that was not URL-encoded arrives as a space and fails.
    const withZone = /([zZ]|[+-]\d{2}:?\d{2})$/.test(raw) ? raw : `${raw}Z`;
    const ms = /^\d{4}-\d{2}-\d{2}T/.test(raw) && onCalendar(raw) ? Date.parse(withZone) : Number.NaN;
    if (Number.isNaN(ms)) throw new FilterError(`'${raw}' is not a valid ${kind} literal.`, true);
    return { type: "datetime", value: ms };
  }
  if (kind === "date") {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
    if (!match || !onCalendar(raw))
      throw new FilterError(`'${raw}' is not a valid date literal (use yyyy-MM-dd).`, true);
    return { type: "datetime", value: Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) };
  }
  if (kind === "guid") return { type: "guid", value: raw.toLowerCase() };
  throw new FilterError(`The literal prefix '${prefix}' is not supported.`, true);
}

/**
 * Whether an ISO date or date-time names a real day and time of day. Date.parse rolls 2026-02-30
 * over to March 2nd; .NET's parsers (the OData literal, Json.NET for a body value) refuse it.
 */
export function onCalendar(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
  if (!match) return false;
  const part = (index: number) => Number(match[index] ?? 0);
  const month = part(2);
  const day = part(3);
  // Day 0 of the next month is this month's last day.
  const lastDay = new Date(Date.UTC(part(1), month, 0)).getUTCDate();
  const inDay = part(4) < 24 && part(5) < 60 && part(6) < 60;
  return month >= 1 && month <= 12 && day >= 1 && day <= lastDay && inDay;
}
