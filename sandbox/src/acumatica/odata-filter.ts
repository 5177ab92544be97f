import type { FieldDef, FieldValue } from "./schema.ts";

/**
 * `$filter` as Acumatica documents it (OData v3 URI conventions, acumatica.md §4.1): eq/ne/gt/ge/lt/le,
 * and/or/not, parentheses, 'strings', numbers, true/false/null, datetimeoffset'..', datetime'..',
 * date'..', guid'..', and startswith/endswith/substringof. String comparisons ignore case, like the
 * SQL Server collation behind a real instance. Filters on detail fields are refused (the docs call
 * their result unpredictable).
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

type CompareOp = "eq" | "ne" | "gt" | "ge" | "lt" | "le";
type Literal =
  | { type: "string"; value: string }
  | { type: "number"; value: number }
  | { type: "datetime"; value: number }
  | { type: "boolean"; value: boolean }
  | { type: "guid"; value: string }
  | { type: "null" };

export type FilterNode = Node;

type Node =
  | { kind: "logical"; op: "and" | "or"; left: Node; right: Node }
  | { kind: "not"; operand: Node }
  | { kind: "compare"; op: CompareOp; left: Node; right: Node }
  | { kind: "call"; name: string; args: Node[] }
  | { kind: "field"; path: string }
  | { kind: "literal"; literal: Literal };

type Token =
  | { type: "word"; text: string; at: number }
  | { type: "literal"; literal: Literal; at: number }
  | { type: "punct"; text: "(" | ")" | ","; at: number };

const COMPARE_OPS = new Set(["eq", "ne", "gt", "ge", "lt", "le"]);
const FUNCTIONS = new Set(["startswith", "endswith", "substringof"]);

export function parseFilter(text: string): Node {
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

  function parseOr(): Node {
    let left = parseAnd();
    while (isWord("or")) {
      position += 1;
      left = { kind: "logical", op: "or", left, right: parseAnd() };
    }
    return left;
  }
  function parseAnd(): Node {
    let left = parseUnary();
    while (isWord("and")) {
      position += 1;
      left = { kind: "logical", op: "and", left, right: parseUnary() };
    }
    return left;
  }
  function parseUnary(): Node {
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
  function parsePrimary(): Node {
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
    if (lower === "true" || lower === "false") return { kind: "literal", literal: { type: "boolean", value: lower === "true" } };
    if (lower === "null") return { kind: "literal", literal: { type: "null" } };
    const next = peek();
    if (next?.type === "punct" && next.text === "(") {
      position += 1;
      const args: Node[] = [];
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
    if (COMPARE_OPS.has(lower) || lower === "and" || lower === "or") return fail(`'${token.text}' needs an operand`);
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
      tokens.push({ type: "literal", literal: { type: "number", value: Number.parseFloat(match[0]) }, at: i });
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
    const ms = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(withZone) : Number.NaN;
    if (Number.isNaN(ms)) throw new FilterError(`'${raw}' is not a valid ${kind} literal.`, true);
    return { type: "datetime", value: ms };
  }
  if (kind === "date") {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
    if (!match) throw new FilterError(`'${raw}' is not a valid date literal (use yyyy-MM-dd).`, true);
    return { type: "datetime", value: Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) };
  }
  if (kind === "guid") return { type: "guid", value: raw.toLowerCase() };
  throw new FilterError(`The literal prefix '${prefix}' is not supported.`, true);
}

type Kind = "string" | "number" | "datetime" | "boolean" | "guid" | "null";

interface Compiled {
  kind: Kind;
  evaluate(record: unknown): FieldValue;
}

/** Resolves a field path to its definition for the requested entity and endpoint version. */
export type FieldResolver<T> = (path: string) => FieldDef<T> | undefined;

export function compileFilter<T>(root: Node, resolve: FieldResolver<T>): (record: T) => boolean {
  // Field getters only ever receive records of the entity `resolve` belongs to.
  const predicate = compilePredicate(root, resolve as FieldResolver<unknown>);
  return (record: T) => predicate(record);
}

function compilePredicate(node: Node, resolve: FieldResolver<unknown>): (record: unknown) => boolean {
  switch (node.kind) {
    case "logical": {
      const left = compilePredicate(node.left, resolve);
      const right = compilePredicate(node.right, resolve);
      return node.op === "and" ? (r) => left(r) && right(r) : (r) => left(r) || right(r);
    }
    case "not": {
      const operand = compilePredicate(node.operand, resolve);
      return (r) => !operand(r);
    }
    case "compare":
      return compileComparison(node.op, compileValue(node.left, resolve), compileValue(node.right, resolve));
    case "call":
      return compileCall(node.name, node.args, resolve);
    default: {
      const value = compileValue(node, resolve);
      if (value.kind !== "boolean") throw new FilterError("The filter must be a condition, not a value.", false);
      return (r) => value.evaluate(r) === true;
    }
  }
}

function compileValue(node: Node, resolve: FieldResolver<unknown>): Compiled {
  if (node.kind === "literal") {
    const literal = node.literal;
    const value = literal.type === "null" ? null : literal.value;
    return { kind: literal.type, evaluate: () => value };
  }
  if (node.kind === "field") {
    if (node.path.includes("/")) {
      throw new FilterError(`Filtering by the detail or linked field '${node.path}' is not supported.`, false);
    }
    const def = resolve(node.path);
    if (!def) throw new FilterError(`The field '${node.path}' is not found in the entity.`, false);
    const kind: Kind = def.type === "decimal" || def.type === "int" ? "number" : def.type;
    return { kind, evaluate: (record) => def.get(record) };
  }
  if (node.kind === "call") {
    const predicate = compileCall(node.name, node.args, resolve);
    return { kind: "boolean", evaluate: (record) => predicate(record) };
  }
  throw new FilterError("A condition cannot be used as a value.", false);
}

function compileComparison(op: CompareOp, left: Compiled, right: Compiled): (record: unknown) => boolean {
  if (left.kind === "null" || right.kind === "null") {
    if (op !== "eq" && op !== "ne") throw new FilterError(`'${op}' cannot compare with null.`, false);
    const other = left.kind === "null" ? right : left;
    return op === "eq" ? (r) => other.evaluate(r) === null : (r) => other.evaluate(r) !== null;
  }
  const [a, b] = alignKinds(left, right);
  if (a.kind !== b.kind) throw new FilterError(`A ${left.kind} value cannot be compared with a ${right.kind} value.`, false);
  if (a.kind === "boolean" && op !== "eq" && op !== "ne") throw new FilterError(`'${op}' does not apply to booleans.`, false);
  const normalize = a.kind === "string" || a.kind === "guid" ? caseless : identity;
  return (record) => {
    const x = a.evaluate(record);
    const y = b.evaluate(record);
    if (x === null || y === null) return op === "ne" ? x !== y : false;
    const order = compareValues(normalize(x), normalize(y));
    switch (op) {
      case "eq":
        return order === 0;
      case "ne":
        return order !== 0;
      case "gt":
        return order > 0;
      case "ge":
        return order >= 0;
      case "lt":
        return order < 0;
      case "le":
        return order <= 0;
    }
  };
}

function compareValues(x: FieldValue, y: FieldValue): number {
  if (typeof x === "number" && typeof y === "number") return x - y;
  const sx = String(x);
  const sy = String(y);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}

/** A quoted number against a decimal field, or a quoted GUID against a GUID field, is accepted. */
function alignKinds(left: Compiled, right: Compiled): [Compiled, Compiled] {
  const coerce = (target: Kind, value: Compiled): Compiled => {
    if (value.kind !== "string") return value;
    const raw = value.evaluate(undefined);
    if (target === "number" && typeof raw === "string" && raw.trim() !== "" && !Number.isNaN(Number(raw))) {
      return { kind: "number", evaluate: () => Number(raw) };
    }
    if (target === "guid") return { kind: "guid", evaluate: value.evaluate };
    return value;
  };
  return [coerce(right.kind, left), coerce(left.kind, right)];
}

function compileCall(name: string, args: Node[], resolve: FieldResolver<unknown>): (record: unknown) => boolean {
  const lower = name.toLowerCase();
  if (!FUNCTIONS.has(lower)) throw new FilterError(`The function '${name}' is not supported.`, false);
  if (args.length !== 2) throw new FilterError(`${name} takes two arguments.`, false);
  const [first, second] = args.map((arg) => compileValue(arg, resolve)) as [Compiled, Compiled];
  if (first.kind !== "string" || second.kind !== "string") {
    throw new FilterError(`${name} needs string arguments.`, false);
  }
  // substringof('needle', Field) takes its arguments the other way round.
  const [haystack, needle] = lower === "substringof" ? [second, first] : [first, second];
  return (record) => {
    const h = haystack.evaluate(record);
    const n = needle.evaluate(record);
    if (typeof h !== "string" || typeof n !== "string") return false;
    const hu = h.toUpperCase();
    const nu = n.toUpperCase();
    if (lower === "startswith") return hu.startsWith(nu);
    if (lower === "endswith") return hu.endsWith(nu);
    return hu.includes(nu);
  };
}

function caseless(value: FieldValue): FieldValue {
  return typeof value === "string" ? value.toUpperCase() : value;
}

function identity(value: FieldValue): FieldValue {
  return value;
}
