/**
 * REST pages as GitHub gives them (docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api):
 * `per_page` defaults to 30 and is at most 100 (a larger value is read as 100), `page` from 1, and a
 * `link` header naming the `prev`, `next`, `last` and `first` pages that exist, each with the
 * request's other query parameters kept.
 */

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

export interface Page<T> {
  items: T[];
  /** The `link` header, absent when everything fits on one page. */
  link?: string;
}

function positive(value: string | null, fallback: number): number {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** The page `query` asks for of `all`; `base` is the route's absolute URL without its query. */
export function paginate<T>(all: readonly T[], query: URLSearchParams, base: string): Page<T> {
  const perPage = Math.min(positive(query.get('per_page'), DEFAULT_PER_PAGE), MAX_PER_PAGE);
  const page = positive(query.get('page'), 1);
  const items = all.slice((page - 1) * perPage, page * perPage);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const url = (n: number): string => {
    const params = new URLSearchParams(query);
    params.set('per_page', String(perPage));
    params.set('page', String(n));
    return `<${base}?${params.toString()}>`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`${url(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) rels.push(`${url(page + 1)}; rel="next"`, `${url(last)}; rel="last"`);
  if (page > 1) rels.push(`${url(1)}; rel="first"`);
  return rels.length ? { items, link: rels.join(', ') } : { items };
}
