/** apiPath: generated calls under SPEC's prefix when it is not `/<name>`, one resource per prefix. */
import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../src/load';
import { apiCode, resourceApiPath, resourceApiPrefix } from '../src/permissions';
import { edit, faultsOf, scratchCopy } from './helpers';

describe('apiPath', () => {
  const meta = loadMetadata();

  it('moves every generated call of a resource under the declared prefix', () => {
    const log = meta.resources['operation-log'];
    expect(resourceApiPrefix(log)).toBe('/log/operation');
    expect(resourceApiPath(log, 'list')).toBe('/log/operation/list');
    expect(resourceApiPath(log, 'base')).toBe('/log/operation');
    expect(apiCode(resourceApiPath(log, 'list'))).toBe('ApiLogOperationList');
    expect(resourceApiPath(meta.resources['carrier-code-route'], 'list')).toBe('/carrier-code/route/list');
    expect(resourceApiPath(meta.resources.carrier, 'list')).toBe('/carrier/list');
  });

  it('refuses two resources answering under one prefix, and a malformed prefix', () => {
    const dir = scratchCopy();
    edit(dir, 'resources/system/admin-log.json', (r) => (r.apiPath = '/log/operation'));
    expect(faultsOf(() => loadMetadata(dir))).toContainEqual(
      expect.objectContaining({ pointer: '/apiPath', problem: expect.stringContaining('API prefix /log/operation is already used') }),
    );
    const bad = scratchCopy();
    edit(bad, 'resources/system/admin-log.json', (r) => (r.apiPath = 'log/Admin'));
    expect(faultsOf(() => loadMetadata(bad))).toContainEqual(expect.objectContaining({ file: 'resources/system/admin-log.json', pointer: '/apiPath' }));
  });
});
