/**
 * A generated list's first page, asked for before its screen has rendered: when the console
 * opens straight on a list (reload, bookmark, restored tab) the call starts as soon as the
 * session is known (routes/preload-page.ts), beside the layout's first render instead of after
 * it. The list screen takes the answer as its first data when it has already arrived (rows in
 * its first render), else the data provider takes the pending call (providers/early-calls.ts).
 *
 * The request is the one the screen's table sends for that URL (the same parsing of the query
 * string as Refine's table with syncWithLocation); a request that differs in any way is simply
 * never taken and the screen asks as usual.
 */
import qs from 'qs';
import { QS_PARSE_DEPTH, unionFilters, unionSorters, type BaseRecord, type CrudFilter, type CrudSort, type GetListResponse } from '@refinedev/core';
import { resourceApiPath, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { DEFAULT_PAGE_SIZE, filtersToBody, sortersToBody } from '../../providers/data-provider';
import { EARLY_FRESH_MS, startEarly, takeArrived } from '../../providers/early-calls';
import { defaultSorters } from './filters';

export interface ListAnswer {
  list: BaseRecord[];
  total: number;
}

/**
 * The list call a generated list screen makes for `search` (its URL query): Refine's table
 * takes page, page size, sorters and filters from the query string, else its defaults
 * (page 1, `pageSize`, the resource's default sort, no filters).
 */
export function listRequest(res: ResourceDef, search: string, pageSize = DEFAULT_PAGE_SIZE): { path: string; body: Record<string, unknown> } {
  const q = qs.parse(search, { ignoreQueryPrefix: true, depth: QS_PARSE_DEPTH }) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : undefined);
  const sorters = (q.sorters ?? q.sorter) as CrudSort[] | undefined;
  const filters = q.filters as CrudFilter[] | undefined;
  const body: Record<string, unknown> = {
    ...filtersToBody(unionFilters([], Array.isArray(filters) ? filters : [])),
    ...sortersToBody(unionSorters([], Array.isArray(sorters) && sorters.length ? sorters : defaultSorters(res))),
    page: num(q.currentPage) || 1,
    limit: num(q.pageSize) || pageSize,
  };
  return { path: resourceApiPath(res, 'list'), body };
}

/** Starts the list call of `res` for `search` (once per request). */
export function startEarlyList(res: ResourceDef, search: string, pageSize?: number): void {
  const { path, body } = listRequest(res, search, pageSize);
  startEarly(path, body, () => request<ListAnswer>(path, body));
}

/** The screen's side, during its first render: the early answer for this URL if it has already arrived (used once). */
export function takeArrivedList(
  res: ResourceDef,
  search: string,
  pageSize?: number,
): { answer: ListAnswer; at: number; body: Record<string, unknown> } | undefined {
  const { path, body } = listRequest(res, search, pageSize);
  const got = takeArrived<ListAnswer>(path, body);
  return got && { answer: got.value, at: got.at, body };
}

/**
 * Query options that make an arrived early answer the table's first data: given once (a
 * later page or filter is a new query and must not start from these rows) and fresh for a
 * moment, so the table does not ask again on mount.
 */
export function earlyQueryOptions(early: { answer: ListAnswer; at: number }) {
  let given = false;
  return {
    initialData: (): GetListResponse<BaseRecord> | undefined => {
      if (given) return undefined;
      given = true;
      return { data: early.answer.list, total: early.answer.total };
    },
    initialDataUpdatedAt: early.at,
    staleTime: (q: { state: { dataUpdatedAt: number } }) => (q.state.dataUpdatedAt === early.at ? EARLY_FRESH_MS : 0),
  };
}
