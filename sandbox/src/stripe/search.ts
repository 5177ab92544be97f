import { invalidRequest } from "./errors.ts";
import type { CustomerRecord } from "./records.ts";

type Clause = { field: string; key?: string; exact: boolean; value: string };

const CLAUSE = /^(email|name|metadata\[(?:'([^']+)'|"([^"]+)")\])\s*(:|~)\s*(?:'([^']*)'|"([^"]*)")$/;

/**
 * A small part of Stripe's search query language for `GET /v1/customers/search`: clauses on
 * email, name or metadata['key'] with `:` (equals) or `~` (contains), joined all by AND or all by OR.
 */
export function customerMatcher(query: string): (customer: CustomerRecord) => boolean {
  const joinedByOr = / OR /.test(query);
  if (joinedByOr && / AND /.test(query)) throw unsupported(query);
  const clauses = query.split(joinedByOr ? / OR / : / AND /).map((text) => parseClause(text.trim(), query));
  return (customer) =>
    joinedByOr
      ? clauses.some((clause) => matches(clause, customer))
      : clauses.every((clause) => matches(clause, customer));
}

function parseClause(text: string, query: string): Clause {
  const match = CLAUSE.exec(text);
  if (!match) throw unsupported(query);
  const key = match[2] ?? match[3];
  const field = key === undefined ? match[1]! : "metadata";
  return { field, key, exact: match[4] === ":", value: match[5] ?? match[6] ?? "" };
}

function matches(clause: Clause, customer: CustomerRecord): boolean {
  const actual =
    clause.field === "metadata"
      ? customer.metadata[clause.key!]
      : clause.field === "email"
        ? customer.email
        : customer.name;
  if (actual === undefined || actual === null) return false;
  return clause.exact ? actual === clause.value : actual.toLowerCase().includes(clause.value.toLowerCase());
}

function unsupported(query: string) {
  return invalidRequest(
    `The sandbox cannot run this search query: ${query}. It understands email, name and metadata['key'] clauses (: or ~) joined by AND or by OR.`,
    { param: "query" },
  );
}
