import type { GraphQLError } from "graphql";

/** One entry of a GraphQL `errors[]` as Shopify sends it. */
export interface ShopifyGraphqlError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

interface Rewrite {
  pattern: RegExp;
  rewrite(groups: string[]): { message: string; extensions: Record<string, unknown> };
}

/**
 * Shopify runs graphql-ruby, whose messages and `extensions.code` differ from graphql-js. The
 * common validation failures are reworded so clients matching on them behave as they would there.
 */
const REWRITES: Rewrite[] = [
  {
    pattern: /^Cannot query field "(\w+)" on type "(\w+)"\./,
    rewrite: ([, field = "", type = ""]) => ({
      message: `Field '${field}' doesn't exist on type '${type}'`,
      extensions: { code: "undefinedField", typeName: type, fieldName: field },
    }),
  },
  {
    pattern: /^Unknown argument "(\w+)" on field "\w+\.(\w+)"\./,
    rewrite: ([, argument = "", field = ""]) => ({
      message: `Field '${field}' doesn't accept argument '${argument}'`,
      extensions: { code: "argumentNotAccepted", name: field, typeName: "Field", argumentName: argument },
    }),
  },
  {
    pattern: /^Field "(\w+)" argument "(\w+)" of type "[^"]+" is required, but it was not provided\./,
    rewrite: ([, field = "", argument = ""]) => ({
      message: `Field '${field}' is missing required arguments: ${argument}`,
      extensions: { code: "missingRequiredArguments", className: "Field", name: field, arguments: argument },
    }),
  },
  {
    pattern: /^Unknown directive "@(\w+)"\./,
    rewrite: ([, directive = ""]) => ({
      message: `Directive @${directive} is not defined`,
      extensions: { code: "undefinedDirective", directiveName: directive },
    }),
  },
  {
    pattern: /^Field "(\w+)" is not defined by type "(\w+)"\./,
    rewrite: ([, field = "", type = ""]) => ({
      message: `InputObject '${type}' doesn't accept argument '${field}'`,
      extensions: { code: "argumentNotAccepted", name: type, typeName: "InputObject", argumentName: field },
    }),
  },
  {
    pattern: /^Field "(\w+)" of type "([^"]+)" must have a selection of subfields\./,
    rewrite: ([, field = "", type = ""]) => ({
      message: `Field must have selections (field '${field}' returns ${type.replace(/[![\]]/g, "")} but has no selections. Did you mean '${field} { ... }'?)`,
      extensions: { code: "selectionMismatch", nodeName: `field '${field}'`, typeName: type },
    }),
  },
  {
    pattern: /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s,
    rewrite: ([, variable = "", value = "", at = "", problem = ""]) => {
      const { field, explanation } = describeProblem(problem);
      const path = [at ? dotted(at, variable) : "", field].filter((part) => part !== "").join(".");
      return {
        message: `Variable $${variable} of type {type} was provided invalid value${path ? ` for ${path}` : ""} (${explanation})`,
        extensions: {
          code: "INVALID_VARIABLE",
          value: safeJson(value),
          problems: [{ path: path ? path.split(".") : [], explanation }],
        },
      };
    },
  },
];

export function shopifyError(error: GraphQLError): ShopifyGraphqlError {
  const base: ShopifyGraphqlError = { message: error.message };
  if (error.locations) base.locations = error.locations.map(({ line, column }) => ({ line, column }));
  if (error.path) base.path = [...error.path];
  for (const { pattern, rewrite } of REWRITES) {
    const match = pattern.exec(error.message);
    if (match) return { ...base, ...rewrite(Array.from(match, (group) => group ?? "")) };
  }
  if (error.extensions && Object.keys(error.extensions).length > 0) base.extensions = { ...error.extensions };
  return base;
}

/** Variable errors name the variable's type, which only the operation knows: filled in by the caller. */
export function withVariableType(error: ShopifyGraphqlError, typeOf: (variable: string) => string) {
  const match = /^Variable \$(\w+) of type \{type\}/.exec(error.message);
  if (!match) return error;
  return { ...error, message: error.message.replace("{type}", typeOf(match[1]!)) };
}

function dotted(path: string, variable: string): string {
  const trimmed = path.startsWith(`${variable}`) ? path.slice(variable.length) : path;
  return trimmed
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^\./, "")
    .trim();
}

/** graphql-ruby names the offending input field in the path and explains in its own words. */
function describeProblem(problem: string): { field: string; explanation: string } {
  const unknown = /^Field "(\w+)" is not defined by type "(\w+)"\./.exec(problem);
  if (unknown) return { field: unknown[1] ?? "", explanation: `Field is not defined on ${unknown[2]}` };
  const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\./.exec(problem);
  if (missing) return { field: missing[1] ?? "", explanation: "Expected value to not be null" };
  return { field: "", explanation: problem.replace(/\.$/, "") };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
