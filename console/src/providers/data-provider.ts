import type { BaseRecord, CrudFilter, CrudSort, DataProvider } from '@refinedev/core';
import type { ResourceDef } from '@rti/metadata/browser';
import { resourceApiPath } from '@rti/metadata/browser';
import { API_BASE } from '../constants';
import { request } from './http-client';
import { recordEvents } from '../lib/record-events';
import { takeEarly } from './early-calls';
import { noteTitles } from './record-titles';

export const DEFAULT_PAGE_SIZE = 10;

/** `status` → `sortByStatus` (docs/API.md). */
export function sortKey(field: string): string {
  return 'sortBy' + field.charAt(0).toUpperCase() + field.slice(1);
}

/**
 * Refine filters → list body. The server knows each field's search kind, so a filter is
 * just `field: value`; ranges are `[from, to]` (either end null), `in` is an array.
 */
export function filtersToBody(filters: CrudFilter[] | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of filters ?? []) {
    if (!('field' in f)) continue; // or/and groups have no flat equivalent in the contract
    const { field, operator, value } = f;
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    switch (operator) {
      case 'gte':
      case 'gt': {
        const prev = Array.isArray(body[field]) ? (body[field] as unknown[]) : [null, null];
        body[field] = [value, prev[1] ?? null];
        break;
      }
      case 'lte':
      case 'lt': {
        const prev = Array.isArray(body[field]) ? (body[field] as unknown[]) : [null, null];
        body[field] = [prev[0] ?? null, value];
        break;
      }
      case 'between':
        body[field] = Array.isArray(value) ? [value[0] ?? null, value[1] ?? null] : value;
        break;
      default:
        body[field] = value;
    }
  }
  return body;
}

export function sortersToBody(sorters: CrudSort[] | undefined): Record<string, boolean> {
  const body: Record<string, boolean> = {};
  for (const s of sorters ?? []) body[sortKey(s.field)] = s.order === 'asc';
  return body;
}

/** Route params arrive as strings; ids are integers on the server ("101" is refused). */
export function recordId(id: unknown): unknown {
  return typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
}

export type ResourceLookup = (name: string) => ResourceDef | undefined;

/** Data provider for the SPEC §7 contract; `lookup` supplies per-resource call paths. */
export function createDataProvider(lookup: ResourceLookup = () => undefined): DataProvider {
  const basePath = (resource: string): string => {
    const def = lookup(resource);
    return def ? resourceApiPath(def, 'base') : `/${resource}`;
  };
  // Resources with an `apiPath` (e.g. /log/operation) answer under that prefix.
  const callPath = (resource: string, call: string): string => {
    const def = lookup(resource);
    return def ? resourceApiPath(def, call) : `/${resource}/${call}`;
  };

  return {
    getApiUrl: () => API_BASE,

    async getList({ resource, pagination, filters, sorters, meta }) {
      const mode = pagination?.mode ?? 'server';
      const body: Record<string, unknown> = {
        ...filtersToBody(filters),
        ...sortersToBody(sorters),
        ...((meta?.body as Record<string, unknown> | undefined) ?? {}),
      };
      if (mode === 'server') {
        body.page = pagination?.currentPage ?? 1;
        body.limit = pagination?.pageSize ?? DEFAULT_PAGE_SIZE;
      }
      if (mode === 'off') {
        const rows = await request<BaseRecord[]>(callPath(resource, 'all'), body);
        noteTitles(lookup(resource), rows);
        return { data: rows as never, total: rows.length };
      }
      const path = callPath(resource, 'list');
      // a list opened straight from the address bar: its call may already be under way (meta/lib/early-list.ts)
      type Page = { list: BaseRecord[]; total: number; totalCapped?: boolean };
      const early = takeEarly<Page>(path, body);
      const data = early ? await early.catch(() => request<Page>(path, body)) : await request<Page>(path, body);
      noteTitles(lookup(resource), data.list);
      // past the server's count cap the total is a lower bound ("more than"): the list says so
      return { data: data.list as never, total: data.total, ...(data.totalCapped ? { totalCapped: true } : {}) };
    },

    async getOne({ resource, id }) {
      const row = await request<BaseRecord>(basePath(resource), { id: recordId(id) });
      noteTitles(lookup(resource), [row]);
      return { data: row as never };
    },

    async getMany({ resource, ids }) {
      const rows = await Promise.all(ids.map((id) => request<BaseRecord>(basePath(resource), { id: recordId(id) })));
      noteTitles(lookup(resource), rows);
      return { data: rows as never };
    },

    async create({ resource, variables }) {
      const row = await request<BaseRecord>(callPath(resource, 'create'), variables);
      noteTitles(lookup(resource), [{ ...(variables as object), ...row }]);
      recordEvents.written(resource);
      return { data: row as never };
    },

    async update({ resource, id, variables }) {
      const row = await request<BaseRecord>(callPath(resource, 'update'), { ...(variables as object), id: recordId(id) });
      noteTitles(lookup(resource), [{ ...(variables as object), ...(row && typeof row === 'object' ? row : {}), id: recordId(id) }]);
      recordEvents.written(resource);
      return { data: row as never };
    },

    async deleteOne({ resource, id }) {
      await request(callPath(resource, 'delete'), { id: recordId(id) });
      recordEvents.deleted(resource, [id]);
      recordEvents.written(resource);
      return { data: { id } as never };
    },

    async deleteMany({ resource, ids }) {
      await request(callPath(resource, 'delete'), { ids: ids.map(recordId) });
      recordEvents.deleted(resource, ids);
      recordEvents.written(resource);
      return { data: ids.map((id) => ({ id })) as never };
    },

    async custom({ url, payload, query, meta }) {
      // `url` is an API path like "/organization-token/create" (API_BASE prefix tolerated).
      const path = url.startsWith(API_BASE + '/') ? url.slice(API_BASE.length) : url;
      const data = await request(path, payload ?? query, { blob: Boolean(meta?.blob) });
      return { data: data as never };
    },
  };
}
