/**
 * Import validators: domain checks a plugin adds to one resource's import (a device already
 * bound to another row, an open order blocking a bind …), in one of two forms.
 *
 * - A function, run per row inside the row's savepoint just before the row is written; it
 *   answers a reason code of the resource's catalogue to refuse the row. A resource with one
 *   is always written row by row.
 * - A chunk handler `{ beforeCreateMany, afterCreateMany }`, run once per chunk of up to 1,000
 *   rows written with one multi-row insert: `beforeCreateMany` judges every row against the
 *   database and the earlier rows of the same chunk (one query per chunk, not per row) and
 *   answers a reason code per refused row; `afterCreateMany` does the chunk's side effects
 *   (log rows in one insert). The resource's per-row create hooks still run for every row of
 *   the chunk, in the chunk's transaction; a plugin whose handler covers its own per-row hook
 *   skips that hook for a transaction its handler has seen. When anything of the chunk
 *   fails, the chunk is rolled back and redone row by row through the repository, where only
 *   the per-row hooks (and function validators) run.
 *
 * Plain create rules belong in before-create hooks: those run for imports too, and an
 * ApiError they throw may carry `params.importCode` for its reason.
 */
import type { ResourceDef } from '@rti/metadata';
import type { Transaction } from 'sequelize';
import type { RequestContext } from '../http/types';
import type { ScopedRepository } from '../resources/repository';
import type { Row } from '../resources/serialize';

export interface ImportRowEvent {
  resource: ResourceDef;
  ctx: RequestContext;
  transaction: Transaction;
  /** 1-based row number in the sheet */
  row: number;
  /** the validated values about to be created (refs already resolved to ids) */
  values: Record<string, unknown>;
  repo: ScopedRepository;
}

/** Returns a reason code to refuse the row, or nothing to accept it. */
export type ImportRowValidator = (event: ImportRowEvent) => Promise<number | null | void> | number | null | void;

export interface ImportChunkEvent<V = Record<string, unknown>> {
  resource: ResourceDef;
  ctx: RequestContext;
  transaction: Transaction;
  /**
   * In file order. Before: the validated values about to be inserted (refs resolved to ids,
   * organisation set). After: the rows as written, in the API shape (ids, labels).
   */
  rows: Array<{ row: number; values: V }>;
}

/** A chunk handler's refusal of a row: a reason code of the catalogue, with the column at fault when known. */
export type ImportRefusal = number | { code: number; column: string };

export interface ImportChunkHandler {
  /**
   * a reason code per refused row (same index as `rows`; null/undefined = accepted), or the code
   * with the column it is about, so the reason names that column and the file's value
   */
  beforeCreateMany?(event: ImportChunkEvent): Promise<Array<ImportRefusal | null | undefined> | void> | Array<ImportRefusal | null | undefined> | void;
  afterCreateMany?(event: ImportChunkEvent<Row>): Promise<void> | void;
}

export type ImportValidator = ImportRowValidator | ImportChunkHandler;

export class ImportValidators {
  private readonly entries: Array<{ resource: string; fn: ImportValidator; last?: boolean }> = [];

  /**
   * `last`: a chunk handler that runs after every other one, on the rows they accepted (the
   * document engine's set-based line checks come after a plugin's per-row reasons).
   */
  add(resource: string, fn: ImportValidator, options: { last?: boolean } = {}): () => void {
    const entry = { resource, fn, last: options.last };
    this.entries.push(entry);
    return () => {
      const i = this.entries.indexOf(entry);
      if (i >= 0) this.entries.splice(i, 1);
    };
  }

  private matching(resource: string) {
    return this.entries.filter((e) => e.resource === resource || e.resource === '*');
  }

  /** Whether a per-row validator exists for the resource (the import then goes row by row). */
  has(resource: string): boolean {
    return this.matching(resource).some((e) => typeof e.fn === 'function');
  }

  /** The chunk handlers of the resource, in registration order. */
  chunkHandlers(resource: string): ImportChunkHandler[] {
    const handlers = this.matching(resource).filter((e) => typeof e.fn !== 'function');
    return [...handlers.filter((e) => !e.last), ...handlers.filter((e) => e.last)].map((e) => e.fn as ImportChunkHandler);
  }

  /** The first refusal of the per-row validators, or null. */
  async check(event: ImportRowEvent): Promise<number | null> {
    for (const e of this.matching(event.resource.name)) {
      if (typeof e.fn !== 'function') continue;
      const code = await e.fn(event);
      if (typeof code === 'number') return code;
    }
    return null;
  }
}
