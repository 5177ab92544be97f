import { DEFAULT_PAGE_SIZE } from "@stockbridge/shared";

export type SortDirection = "asc" | "desc";

/** Page, size, search and sort of a server-paged list, as screens hold them. */
export interface ListParams<S extends string = string> {
  page?: number;
  limit?: number;
  search?: string;
  sortBy?: S;
  sortDirection?: SortDirection;
}

export interface NormalizedListParams<S extends string = string> {
  page: number;
  limit: number;
  search?: string;
  sortBy?: S;
  sortDirection?: SortDirection;
}

/** The query-string form the contract's list endpoints take (numbers travel as text). */
export interface ListQueryStrings<S extends string = string> {
  page: string;
  limit: string;
  search?: string;
  sortBy?: S;
  sortDirection?: SortDirection;
}

/**
 * One canonical form per list request, so equal requests share one cache entry: defaults filled,
 * search trimmed and left out when empty (the API omits it too), no undefined keys.
 */
export function normalizeListParams<S extends string>(params: ListParams<S> = {}): NormalizedListParams<S> {
  const normalized: NormalizedListParams<S> = {
    page: Math.max(1, Math.trunc(params.page ?? 1)),
    limit: Math.max(1, Math.trunc(params.limit ?? DEFAULT_PAGE_SIZE)),
  };
  const search = params.search?.trim();
  if (search) normalized.search = search;
  if (params.sortBy) normalized.sortBy = params.sortBy;
  if (params.sortDirection) normalized.sortDirection = params.sortDirection;
  return normalized;
}

export function toQueryStrings<S extends string>(params: NormalizedListParams<S>): ListQueryStrings<S> {
  const query: ListQueryStrings<S> = { page: String(params.page), limit: String(params.limit) };
  if (params.search) query.search = params.search;
  if (params.sortBy) query.sortBy = params.sortBy;
  if (params.sortDirection) query.sortDirection = params.sortDirection;
  return query;
}
