import { describe, expect, it } from 'vitest';
import { loadMetadata, type ResourceDef } from '@rti/metadata';
import { indexPlan } from '../src/db/models';

describe('index plan', () => {
  it('puts the organisation first in declared composite indexes', () => {
    const res: ResourceDef = {
      name: 'thing',
      module: 'device',
      route: '/device/thing',
      orgScoped: true,
      titleField: 'sn',
      fields: [
        { name: 'sn', type: 'string' },
        { name: 'status', type: 'int' },
        { name: 'warehouseId', type: 'int' },
      ],
      indexes: [
        ['warehouseId', 'status'],
        ['warehouseId', 'sn'],
      ],
    };
    const cols = indexPlan(res).map((p) => p.columns.join(','));
    expect(cols).toContain('org_id,warehouse_id,status');
    expect(cols).toContain('org_id,warehouse_id,sn');
  });

  it('serves the carrier list filter + sort from declared indexes', () => {
    const carrier = loadMetadata().resources.carrier;
    const cols = indexPlan(carrier).map((p) => p.columns.join(','));
    expect(cols).toEqual(expect.arrayContaining(['org_id,warehouse_id,status', 'org_id,warehouse_id,sn']));
  });

  it('covers the pool analytics grouped read of the in/out history: per warehouse and carrier over a period, without a table read', () => {
    // plugins/pool-analytics cellsOf: WHERE org, time range GROUP BY warehouse, carrier reading direction and code
    const cols = indexPlan(loadMetadata().resources['carrier-inout']).map((p) => p.columns.join(','));
    expect(cols).toContain('org_id,warehouse_id,carrier_id,confirm_time,direction,carrier_code_id');
    // and its carriers per code counted distinct in code and carrier order (no sort of the period's rows)
    expect(cols).toContain('org_id,carrier_code_id,carrier_id,confirm_time');
  });
});
