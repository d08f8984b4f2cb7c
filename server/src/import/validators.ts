/**
 * Import validators: domain checks a plugin adds to one resource's import (a device already
 * bound to another row, an open order blocking a bind …). They run inside the row's savepoint
 * just before the row is written and answer a reason code of the resource's catalogue to
 * refuse the row. Plain create rules belong in before-create hooks instead: those run for
 * imports too, and an ApiError they throw may carry `params.importCode` for its reason.
 */
import type { ResourceDef } from '@rti/metadata';
import type { Transaction } from 'sequelize';
import type { RequestContext } from '../http/types';
import type { ScopedRepository } from '../resources/repository';

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
export type ImportValidator = (event: ImportRowEvent) => Promise<number | null | void> | number | null | void;

export class ImportValidators {
  private readonly entries: Array<{ resource: string; fn: ImportValidator }> = [];

  add(resource: string, fn: ImportValidator): () => void {
    const entry = { resource, fn };
    this.entries.push(entry);
    return () => {
      const i = this.entries.indexOf(entry);
      if (i >= 0) this.entries.splice(i, 1);
    };
  }

  has(resource: string): boolean {
    return this.entries.some((e) => e.resource === resource || e.resource === '*');
  }

  /** The first refusal's code, or null. */
  async check(event: ImportRowEvent): Promise<number | null> {
    for (const e of this.entries) {
      if (e.resource !== event.resource.name && e.resource !== '*') continue;
      const code = await e.fn(event);
      if (typeof code === 'number') return code;
    }
    return null;
  }
}
